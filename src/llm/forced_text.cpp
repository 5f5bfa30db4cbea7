#include "llm/forced_text.h"

#include <deque>
#include <vector>

#include "domain/labels.h"

namespace nunchi::llm {
namespace {

// One element of the answer: a literal, a choice among quoted enum values
// (closing quote included, so no value is a prefix of another), or the cause text.
struct Elem {
  enum Kind { kLit, kChoice, kText } kind = kLit;
  std::string lit;
  std::vector<std::string> values;
  enum Role { kNone, kRelevance } role = kNone;
};

Elem Lit(std::string s) { return Elem{Elem::kLit, std::move(s), {}, Elem::kNone}; }

template <typename Range>
Elem Choice(const Range& labels) {
  Elem e{Elem::kChoice, "", {}, Elem::kNone};
  for (const auto& l : labels) e.values.push_back(std::string(ToString(l)) + "\"");
  return e;
}

Elem RelevanceChoice() {
  return Elem{Elem::kChoice, "", {"IRRELEVANT\"", "RELEVANT\""}, Elem::kRelevance};
}

class Walker {
 public:
  explicit Walker(std::span<const std::string> ids) : ids_(ids) {
    if (ids_.empty()) {
      queue_.push_back(Lit("{}"));
    } else {
      StartItem(0);
    }
  }

  // Consumes one byte; false when it breaks the format.
  bool Consume(char c) {
    if (queue_.empty()) return false;
    Elem& e = queue_.front();
    switch (e.kind) {
      case Elem::kLit:
        if (e.lit[offset_] != c) return false;
        if (++offset_ == e.lit.size()) Pop();
        return true;
      case Elem::kChoice: {
        prefix_ += c;
        const std::string* match = nullptr;
        int candidates = 0;
        for (const auto& v : e.values) {
          if (v.compare(0, prefix_.size(), prefix_) == 0) {
            ++candidates;
            if (v.size() == prefix_.size()) match = &v;
          }
        }
        if (candidates == 0) return false;
        if (match != nullptr) Choose(*match);
        return true;
      }
      case Elem::kText: {
        if (c == '"') {  // the text ends; the quote belongs to the next literal
          Pop();
          return Consume(c);
        }
        unsigned char u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7F || c == '\\') return false;
        if ((u & 0xC0) != 0x80 && ++text_chars_ > kMaxCauseTextChars) return false;
        return true;
      }
    }
    return false;
  }

  ForcedText Forced() {
    ForcedText out;
    while (!queue_.empty()) {
      Elem& e = queue_.front();
      if (e.kind == Elem::kLit) {
        out.text += e.lit.substr(offset_);
        Pop();
      } else if (e.kind == Elem::kChoice) {
        std::vector<const std::string*> candidates;
        for (const auto& v : e.values) {
          if (v.compare(0, prefix_.size(), prefix_) == 0) candidates.push_back(&v);
        }
        if (candidates.size() != 1) {  // a real choice: emit only the common prefix
          size_t common = candidates.front()->size();
          for (const auto* v : candidates) {
            size_t k = prefix_.size();
            while (k < common && k < v->size() && (*v)[k] == (*candidates.front())[k]) ++k;
            common = k;
          }
          out.text += candidates.front()->substr(prefix_.size(), common - prefix_.size());
          return out;
        }
        out.text += candidates.front()->substr(prefix_.size());
        Choose(*candidates.front());
      } else {  // text: forced only once it is full
        if (text_chars_ < kMaxCauseTextChars) return out;
        Pop();
      }
    }
    out.complete = true;
    return out;
  }

 private:
  void StartItem(size_t k) {
    item_ = k;
    queue_.push_back(Lit((k == 0 ? "{\"" : ",\"") + ids_[k] + "\":{\"r\":\""));
    queue_.push_back(RelevanceChoice());
  }

  void Pop() {
    queue_.pop_front();
    offset_ = 0;
    prefix_.clear();
  }

  void Choose(std::string value) {  // by value: it may point into the element popped here
    bool relevance = queue_.front().role == Elem::kRelevance;
    Pop();
    if (!relevance) return;
    std::deque<Elem> follow;
    if (value == "IRRELEVANT\"") {
      follow.push_back(Lit("}"));
    } else {
      follow.push_back(Lit(",\"l\":\""));
      follow.push_back(Choice(kAllLevels));
      follow.push_back(Lit(",\"c\":\""));
      follow.push_back(Choice(kAllCauses));
      follow.push_back(Lit(",\"t\":\""));
      follow.push_back(Elem{Elem::kText, "", {}, Elem::kNone});
      follow.push_back(Lit("\"}"));
      text_chars_ = 0;
    }
    if (item_ + 1 < ids_.size()) {
      follow.push_back(Lit(",\"" + ids_[item_ + 1] + "\":{\"r\":\""));
      follow.push_back(RelevanceChoice());
      ++item_;
    } else {
      follow.push_back(Lit("}"));
    }
    queue_.insert(queue_.begin(), follow.begin(), follow.end());
  }

  std::span<const std::string> ids_;
  std::deque<Elem> queue_;
  size_t item_ = 0;
  size_t offset_ = 0;      // into the front literal
  std::string prefix_;     // consumed part of the front choice
  size_t text_chars_ = 0;  // code points of the current cause text
};

}  // namespace

std::optional<ForcedText> ForcedContinuation(std::span<const std::string> ids,
                                             std::string_view so_far) {
  Walker walker(ids);
  for (char c : so_far) {
    if (!walker.Consume(c)) return std::nullopt;
  }
  return walker.Forced();
}

}  // namespace nunchi::llm
