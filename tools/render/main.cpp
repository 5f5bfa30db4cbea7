// nunchi-render: writes labelled synthetic receipts and taxi meters.
// Usage: nunchi-render --out DIR [--count N] [--seed S] [--varied 1]
//                      [--kind all|receipts|meters]
#include <cstdio>
#include <cstdlib>
#include <string>

#include "render.h"

int main(int argc, char** argv) {
  std::string out;
  int count = 20;
  unsigned long long seed = 1;
  bool varied = false;
  auto kind = nunchi::render::SetKind::kAll;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--out")
      out = argv[i + 1];
    else if (flag == "--count")
      count = std::atoi(argv[i + 1]);
    else if (flag == "--seed")
      seed = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--varied")
      varied = std::string(argv[i + 1]) == "1";
    else if (flag == "--kind")
      kind = std::string(argv[i + 1]) == "receipts" ? nunchi::render::SetKind::kReceipts
             : std::string(argv[i + 1]) == "meters" ? nunchi::render::SetKind::kMeters
                                                    : nunchi::render::SetKind::kAll;
  }
  if (out.empty() || count <= 0) {
    std::fprintf(stderr,
                 "usage: nunchi-render --out DIR [--count N] [--seed S] [--varied 1] "
                 "[--kind all|receipts|meters]\n");
    return 2;
  }
  std::string error;
  if (!nunchi::render::RenderSet(out, count, seed, &error, varied, kind)) {
    std::fprintf(stderr, "nunchi-render: %s\n", error.c_str());
    return 1;
  }
  std::printf("wrote %d images to %s\n", count, out.c_str());
  return 0;
}
