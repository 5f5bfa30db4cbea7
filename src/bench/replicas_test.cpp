#include "bench/replicas.h"

#include <gtest/gtest.h>

namespace nunchi::bench {
namespace {

TEST(ReplicasTest, HaproxyConfigCanResendACycleAReplicaDiedIn) {
  const std::string cfg = HaproxyConfig(9000, 9001, 9002);
  EXPECT_NE(cfg.find("bind 127.0.0.1:9000"), std::string::npos);
  EXPECT_NE(cfg.find("server a 127.0.0.1:9001 check"), std::string::npos);
  EXPECT_NE(cfg.find("server b 127.0.0.1:9002 check"), std::string::npos);
  EXPECT_NE(cfg.find("option httpchk GET /readyz"), std::string::npos);
  // Without these two HAProxy answers 502 to a request whose replica was
  // killed while answering it (tests/blackbox/failover_test.cpp).
  EXPECT_NE(cfg.find("option http-buffer-request"), std::string::npos);
  EXPECT_NE(cfg.find("junk-response"), std::string::npos);
  EXPECT_NE(cfg.find("option redispatch"), std::string::npos);
}

TEST(ReplicasTest, RefusesAStoreThatIsNotPostgres) {
  ReplicasArgs a;
  a.store = "/tmp/judgments.sqlite";
  EXPECT_EQ(RunReplicasCommand(a), 2);
}

}  // namespace
}  // namespace nunchi::bench
