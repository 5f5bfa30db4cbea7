// The output format of the judge prompt, as a JSON Schema (for OpenAI-style
// response_format / vLLM / SGLang / llama-server) and as a GBNF grammar (for
// llama.cpp's grammar sampler). Both accept only the canonical form:
//
//   {"#2":{"r":"IRRELEVANT"},"#5":{"r":"RELEVANT","l":"HIGH","c":"EVENT","t":"팝업 대기줄"}}
//
// One key per target id, in target order; r is RELEVANT | IRRELEVANT; l, c and
// t are present only when RELEVANT (the cause text is never generated for
// IRRELEVANT items); l and c take the wire names of domain/labels.h; t is at
// most kMaxCauseTextChars code points with no quote, backslash or control
// character. The grammar admits no whitespace outside t and no escapes, so the
// answer is as short as the content allows and tokens forced by the grammar
// (keys, punctuation, ids) can be fast-forwarded by the engine. A root object
// (not an array) because strict response_format requires one; keys rather
// than "id" fields because they are shorter and the schema pins them.
//
// An item whose id is marked without text (with_text[k] false; an empty
// with_text means every item has one) has no t: {"r":"RELEVANT","l":..,"c":..}.
//
// Pure functions; GrammarCache is thread-safe.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace nunchi::llm {

struct SchemaOptions {
  // Emit "maxLength" on the cause text. Some hosted strict modes reject
  // length keywords; the parser checks the length either way.
  bool max_length = true;
};

// JSON Schema (compact JSON text) for the given target ids: every key
// required, additionalProperties false, enums for labels, properties in
// output order, anyOf {IRRELEVANT} | {RELEVANT, l, c, t}.
std::string JudgeJsonSchema(std::span<const std::string> ids, SchemaOptions options = {},
                            const std::vector<bool>& with_text = {});

// GBNF grammar for the given target ids (see the format above). Ids must be
// made of printable ASCII without quotes or backslashes (LocalId's are).
std::string JudgeGbnf(std::span<const std::string> ids, const std::vector<bool>& with_text = {});

// The cache key of an output shape: the ids joined by spaces ("#2 #5"), an
// id without text marked by a trailing "-" ("#2- #5").
std::string ShapeKey(std::span<const std::string> ids, const std::vector<bool>& with_text = {});

// Longest answer the grammar admits for n items, in bytes (for token caps).
size_t MaxAnswerBytes(std::span<const std::string> ids, const std::vector<bool>& with_text = {});

// A bounded LRU cache of grammar texts by shape. Engines may keep their
// compiled samplers keyed by the same ShapeKey. Thread-safe.
class GrammarCache {
 public:
  explicit GrammarCache(size_t capacity = 256) : capacity_(capacity == 0 ? 1 : capacity) {}
  // The grammar for ids, built on first use.
  std::shared_ptr<const std::string> Gbnf(std::span<const std::string> ids,
                                          const std::vector<bool>& with_text = {});
  size_t size() const;
  size_t hits() const;
  size_t misses() const;

 private:
  using Entry = std::pair<std::string, std::shared_ptr<const std::string>>;
  const size_t capacity_;
  mutable std::mutex mu_;
  std::list<Entry> lru_;  // front: most recent
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
  size_t hits_ = 0;
  size_t misses_ = 0;
};

}  // namespace nunchi::llm
