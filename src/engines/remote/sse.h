// Server-sent events reader for streamed chat completions: fed the response
// body in arbitrary pieces, it reports the data of each complete event
// ("data: ..." lines up to a blank line; multi-line data joined by '\n';
// comments and other fields ignored). One reader per stream; not thread-safe.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace nunchi::remote {

class SseReader {
 public:
  // on_data returns false to stop; Feed then returns false and ignores the rest.
  using OnData = std::function<bool(std::string_view data)>;

  bool Feed(std::string_view bytes, const OnData& on_data);
  // Flushes an event left without its closing blank line (end of stream).
  // Afterwards the reader ignores all input: Feed and Finish return false.
  bool Finish(const OnData& on_data);

 private:
  bool Line(std::string_view line, const OnData& on_data);

  std::string buffer_;  // an incomplete line
  std::string data_;    // data of the event being read
  bool has_data_ = false;
  bool stopped_ = false;
};

}  // namespace nunchi::remote
