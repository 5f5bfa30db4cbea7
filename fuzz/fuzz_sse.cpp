// libFuzzer target: the server-sent events reader (engines/remote/sse.h).
// The events a stream yields must not depend on how the body is cut into
// pieces: each input is fed whole to one reader and in pieces (sizes drawn
// from the input's own bytes) to another, and both must report the same
// events. A reader told to stop must report nothing more.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "engines/remote/sse.h"

namespace {

using nunchi::remote::SseReader;

std::vector<std::string> Events(std::string_view text, size_t seed, size_t stop_after) {
  std::vector<std::string> events;
  SseReader reader;
  const SseReader::OnData on_data = [&](std::string_view data) {
    events.emplace_back(data);
    return events.size() < stop_after;
  };
  bool going = true;
  size_t pos = 0;
  while (pos < text.size()) {
    // Piece sizes 1..16 when seeded, else the whole text at once.
    size_t n = seed ? 1 + (seed ^ (pos * 2654435761u)) % 16 : text.size();
    n = std::min(n, text.size() - pos);
    going = reader.Feed(text.substr(pos, n), on_data);
    if (!going) break;
    pos += n;
  }
  if (!going) {
    // Once Feed has said stop, the reader ignores everything.
    if (reader.Feed("data: x\n\n", on_data) || reader.Finish(on_data)) std::abort();
  } else {
    reader.Finish(on_data);
    // After Finish the stream has ended: nothing more is read.
    const size_t seen = events.size();
    if (reader.Feed("data: x\n\n", on_data) || reader.Finish(on_data)) std::abort();
    if (events.size() != seen) std::abort();
  }
  if (events.size() > stop_after) std::abort();  // no event after the stop
  return events;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const size_t seed = 1 + data[0];
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::vector<std::string> whole = Events(text, 0, SIZE_MAX);
  if (Events(text, seed, SIZE_MAX) != whole) std::abort();
  // Stopping after the first event yields exactly that event.
  if (!whole.empty()) {
    const std::vector<std::string> first = Events(text, seed, 1);
    if (first.size() != 1 || first[0] != whole[0]) std::abort();
  }
  return 0;
}
