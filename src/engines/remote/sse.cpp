#include "engines/remote/sse.h"

namespace nunchi::remote {

bool SseReader::Line(std::string_view line, const OnData& on_data) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.empty()) {  // end of event
    if (!has_data_) return true;
    has_data_ = false;
    std::string data = std::move(data_);
    data_.clear();
    return on_data(data);
  }
  if (line.front() == ':') return true;  // comment / keep-alive
  size_t colon = line.find(':');
  std::string_view field = line.substr(0, colon);
  std::string_view value = colon == std::string_view::npos ? "" : line.substr(colon + 1);
  if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  if (field == "data") {
    if (has_data_) data_ += '\n';
    data_.append(value);
    has_data_ = true;
  }
  return true;
}

bool SseReader::Feed(std::string_view bytes, const OnData& on_data) {
  if (stopped_) return false;
  buffer_.append(bytes);
  size_t start = 0;
  for (size_t nl = buffer_.find('\n'); nl != std::string::npos; nl = buffer_.find('\n', start)) {
    if (!Line(std::string_view(buffer_).substr(start, nl - start), on_data)) {
      stopped_ = true;
      buffer_.clear();
      return false;
    }
    start = nl + 1;
  }
  buffer_.erase(0, start);
  return true;
}

bool SseReader::Finish(const OnData& on_data) {
  if (stopped_) return false;
  bool going = true;
  if (!buffer_.empty()) {
    std::string rest = std::move(buffer_);
    buffer_.clear();
    going = Line(rest, on_data);
  }
  if (going) going = Line("", on_data);
  stopped_ = true;  // the stream has ended: later Feed and Finish are ignored
  return going;
}

}  // namespace nunchi::remote
