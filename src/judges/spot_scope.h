// What a spot's description counts as the spot and what it leaves out: "모래울항 낚시잔교
// 위와 잔교 입구까지이며, 옆 방파제는 포함하지 않는다" names 방파제 as another place. The
// rules read the included part as the spot's own words and the excluded nouns as other
// places (rules_scan.cpp). Pure functions, any thread; callers judging many signals of
// one spot compute it once (RuleContext::spot_compact, spot_excluded).
#pragma once

#include <string>
#include <vector>

#include "domain/contract.h"

namespace nunchi::judges {

struct SpotScope {
  // The spot's name and the description without its exclusion clauses, compact form.
  std::string included_compact;
  // Compact nouns the description says are not the spot ("방파제", "실내탕", "ATM코너"'s
  // "코너"): the last word of each listed item, unless the included part uses it too.
  std::vector<std::string> excluded;
};

SpotScope MakeSpotScope(const SpotInfo& spot);

}  // namespace nunchi::judges
