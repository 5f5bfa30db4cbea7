// Cause texts: at most 40 characters of Korean saying why, written from the
// detected cause, its key words and the level or waiting time ("팝업스토어 대기줄",
// "운행 지연으로 승객 몰림"). Empty for IRRELEVANT. Pure; safe from any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "domain/labels.h"
#include "judges/rules.h"

namespace nunchi::judges {

std::string MakeCauseText(Relevance relevance, Level level, Cause cause, std::string_view key,
                          const std::optional<WaitInfo>& wait);

// The key words a cause text uses when no words were found in the text.
std::string_view DefaultCauseKey(Cause cause);

}  // namespace nunchi::judges
