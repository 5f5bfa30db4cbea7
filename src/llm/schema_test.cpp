#include "llm/schema.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <thread>
#include <vector>

#include "llm/prompt.h"

namespace nunchi::llm {
namespace {

using ojson = nlohmann::ordered_json;

std::vector<std::string> Ids(size_t n, size_t first = 0) {
  std::vector<std::string> ids;
  for (size_t i = 0; i < n; ++i) ids.push_back(LocalId(first + i));
  return ids;
}

// Every object schema lists all its properties as required and forbids others.
void ExpectStrict(const ojson& s) {
  if (s.is_object()) {
    if (s.contains("properties")) {
      ASSERT_EQ(s.value("additionalProperties", true), false);
      std::vector<std::string> keys, required = s["required"];
      for (auto& [k, v] : s["properties"].items()) keys.push_back(k);
      EXPECT_EQ(keys, required);
    }
    for (auto& [k, v] : s.items()) ExpectStrict(v);
  } else if (s.is_array()) {
    for (auto& v : s) ExpectStrict(v);
  }
}

TEST(SchemaTest, JsonSchemaIsStrictForEveryShape) {
  for (size_t n = 1; n <= 20; ++n) {
    auto ids = Ids(n, 3);
    std::string text = JudgeJsonSchema(ids);
    ojson s = ojson::parse(text);  // throws on invalid JSON
    EXPECT_EQ(text.find(' '), std::string::npos);
    EXPECT_EQ(s["type"], "object");
    std::vector<std::string> keys;
    for (auto& [k, v] : s["properties"].items()) keys.push_back(k);
    EXPECT_EQ(keys, ids);  // in output order, even "#10" after "#9"
    ExpectStrict(s);
    const ojson& rel = s["properties"][ids[0]]["anyOf"][1]["properties"];
    EXPECT_EQ(rel["t"]["maxLength"], 40);
    EXPECT_EQ(rel["l"]["enum"].size(), 4u);
    EXPECT_EQ(rel["c"]["enum"].size(), 7u);
    std::vector<std::string> order;
    for (auto& [k, v] : rel.items()) order.push_back(k);
    EXPECT_EQ(order, (std::vector<std::string>{"r", "l", "c", "t"}));
  }
  ojson loose = ojson::parse(JudgeJsonSchema(Ids(2), SchemaOptions{.max_length = false}));
  EXPECT_FALSE(loose["properties"]["#1"]["anyOf"][1]["properties"]["t"].contains("maxLength"));
}

// --- A tiny GBNF-to-regex translator for the subset the grammar uses. Each
// non-ASCII code point of a subject is mapped to 'K' first, so that character
// classes and {m,n} count code points as llama.cpp's grammar does.

struct Gbnf {
  std::map<std::string, std::string> rules;  // name -> body
};

Gbnf ParseRules(const std::string& g) {
  Gbnf out;
  size_t pos = 0;
  while (pos < g.size()) {
    size_t eol = g.find('\n', pos);
    std::string line = g.substr(pos, eol - pos);
    pos = eol == std::string::npos ? g.size() : eol + 1;
    if (line.empty()) continue;
    size_t def = line.find(" ::= ");
    EXPECT_NE(def, std::string::npos) << line;
    if (def == std::string::npos) continue;
    std::string name = line.substr(0, def);
    EXPECT_TRUE(std::regex_match(name, std::regex("[a-z][a-z0-9-]*"))) << name;
    EXPECT_EQ(out.rules.count(name), 0u) << "rule defined twice: " << name;
    out.rules[name] = line.substr(def + 5);
  }
  return out;
}

std::string ToRegex(const Gbnf& g, const std::string& name, int depth = 0) {
  EXPECT_LT(depth, 10) << "recursive rule " << name;
  auto it = g.rules.find(name);
  EXPECT_NE(it, g.rules.end()) << "undefined rule " << name;
  if (it == g.rules.end() || depth >= 10) return "(?!)";
  const std::string& b = it->second;
  std::string re = "(?:";
  for (size_t i = 0; i < b.size();) {
    char c = b[i];
    if (c == ' ') {
      ++i;
    } else if (c == '"') {  // literal
      for (++i; i < b.size() && b[i] != '"'; ++i) {
        char ch = b[i];
        if (ch == '\\') ch = b[++i];
        EXPECT_NE(ch, ' ') << "whitespace in a literal of " << name;
        if (std::string("\\^$.|?*+()[]{}").find(ch) != std::string::npos) re += '\\';
        re += ch;
      }
      ++i;
    } else if (c == '[') {  // character class: GBNF and ECMAScript agree on this subset
      size_t end = b.find(']', i + 2);
      std::string cls = b.substr(i, end + 1 - i);
      re += cls;
      i = end + 1;
    } else if (c == '(' || c == ')' || c == '|') {
      re += c == '(' ? std::string("(?:") : std::string(1, c);
      ++i;
    } else if (c == '{') {
      size_t end = b.find('}', i);
      re += b.substr(i, end + 1 - i);
      i = end + 1;
    } else {
      size_t end = i;
      while (end < b.size() && (std::isalnum(static_cast<unsigned char>(b[end])) || b[end] == '-'))
        ++end;
      EXPECT_GT(end, i) << "unexpected '" << c << "' in " << name;
      if (end == i) return "(?!)";
      re += ToRegex(g, b.substr(i, end - i), depth + 1);
      i = end;
    }
  }
  return re + ")";
}

std::string MapNonAscii(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80)
      out += s[i];
    else if ((c & 0xC0) != 0x80)
      out += 'K';  // lead byte of a code point
  }
  return out;
}

std::string Item(const std::string& id, const std::string& body) {
  return "\"" + id + "\":" + body;
}

TEST(SchemaTest, GrammarAcceptsExactlyTheCanonicalForm) {
  const std::string irr = R"({"r":"IRRELEVANT"})";
  const std::string rel = R"({"r":"RELEVANT","l":"HIGH","c":"PEAK_TIME","t":"출근길 환승 인파"})";
  for (size_t n = 1; n <= 20; ++n) {
    auto ids = Ids(n, 1);
    std::string gbnf = JudgeGbnf(ids);
    Gbnf g = ParseRules(gbnf);
    std::regex re(ToRegex(g, "root"));
    std::string ok = "{";
    for (size_t i = 0; i < n; ++i) ok += (i ? "," : "") + Item(ids[i], i % 2 ? irr : rel);
    ok += "}";
    EXPECT_TRUE(std::regex_match(MapNonAscii(ok), re)) << ok << "\n" << gbnf;
    // Whitespace anywhere outside the cause text is rejected.
    std::string spaced = ok;
    spaced.insert(1, " ");
    EXPECT_FALSE(std::regex_match(MapNonAscii(spaced), re));
    // Missing last item, or one too many.
    std::string shortened = "{";
    for (size_t i = 0; i + 1 < n; ++i) shortened += (i ? "," : "") + Item(ids[i], irr);
    shortened += "}";
    EXPECT_FALSE(std::regex_match(MapNonAscii(shortened), re));
    std::string extra = ok.substr(0, ok.size() - 1) + "," + Item(LocalId(n + 5), irr) + "}";
    EXPECT_FALSE(std::regex_match(MapNonAscii(extra), re));
  }
}

TEST(SchemaTest, GrammarRejectsWrongIdsOrderValuesAndLongText) {
  std::vector<std::string> ids = {"#2", "#5"};
  std::regex re(ToRegex(ParseRules(JudgeGbnf(ids)), "root"));
  auto match = [&](const std::string& s) { return std::regex_match(MapNonAscii(s), re); };
  const std::string irr = R"({"r":"IRRELEVANT"})";
  auto rel = [](const std::string& l, const std::string& c, const std::string& t) {
    return R"({"r":"RELEVANT","l":")" + l + R"(","c":")" + c + R"(","t":")" + t + "\"}";
  };
  EXPECT_TRUE(match("{" + Item("#2", irr) + "," + Item("#5", rel("LOW", "NONE", "")) + "}"));
  EXPECT_FALSE(match("{" + Item("#5", irr) + "," + Item("#2", irr) + "}"));  // order
  EXPECT_FALSE(match("{" + Item("#2", irr) + "," + Item("#3", irr) + "}"));  // wrong id
  EXPECT_FALSE(match("{" + Item("#2", irr) + "," + Item("#5", rel("HUGE", "NONE", "")) + "}"));
  EXPECT_FALSE(match("{" + Item("#2", irr) + "," + Item("#5", rel("LOW", "RAIN", "")) + "}"));
  // IRRELEVANT carries no cause text.
  EXPECT_FALSE(
      match("{" + Item("#2", R"({"r":"IRRELEVANT","t":""})") + "," + Item("#5", irr) + "}"));
  std::string forty(40, 'x'), korean40;
  for (int i = 0; i < 40; ++i) korean40 += "가";
  EXPECT_TRUE(match("{" + Item("#2", irr) + "," + Item("#5", rel("HIGH", "EVENT", forty)) + "}"));
  EXPECT_TRUE(
      match("{" + Item("#2", irr) + "," + Item("#5", rel("HIGH", "EVENT", korean40)) + "}"));
  EXPECT_FALSE(
      match("{" + Item("#2", irr) + "," + Item("#5", rel("HIGH", "EVENT", forty + "x")) + "}"));
  EXPECT_FALSE(match("{" + Item("#2", irr) + "," + Item("#5", rel("HIGH", "EVENT", "a\\\"b")) +
                     "}"));  // no escapes
}

TEST(SchemaTest, ItemsWithoutTextHaveTheCauseCodeOnly) {
  std::vector<std::string> ids = {"#2", "#5"};
  const std::vector<bool> with_text = {false, true};
  std::regex re(ToRegex(ParseRules(JudgeGbnf(ids, with_text)), "root"));
  auto match = [&](const std::string& s) { return std::regex_match(MapNonAscii(s), re); };
  const std::string bare = R"({"r":"RELEVANT","l":"HIGH","c":"EVENT"})";
  const std::string text = R"({"r":"RELEVANT","l":"HIGH","c":"EVENT","t":"팝업 대기줄"})";
  EXPECT_TRUE(match("{" + Item("#2", bare) + "," + Item("#5", text) + "}"));
  EXPECT_TRUE(match("{" + Item("#2", R"({"r":"IRRELEVANT"})") + "," + Item("#5", text) + "}"));
  EXPECT_FALSE(match("{" + Item("#2", text) + "," + Item("#5", text) + "}"));  // t not asked
  EXPECT_FALSE(match("{" + Item("#2", bare) + "," + Item("#5", bare) + "}"));  // t asked
  EXPECT_EQ(ShapeKey(ids, with_text), "#2- #5");
  EXPECT_NE(ShapeKey(ids, with_text), ShapeKey(ids));
  EXPECT_LT(MaxAnswerBytes(ids, with_text) + 4 * kMaxCauseTextChars, MaxAnswerBytes(ids) + 10);
  EXPECT_GE(MaxAnswerBytes(ids, with_text),
            ("{" + Item("#2", R"({"r":"RELEVANT","l":"UNKNOWN","c":"CONSTRUCTION"})") + "," +
             Item("#5", text) + "}")
                .size());
  auto schema = nlohmann::json::parse(JudgeJsonSchema(ids, {}, with_text));
  auto required = [&](const char* id) {
    return schema["properties"][id]["anyOf"][1]["required"].dump();
  };
  EXPECT_EQ(required("#2"), R"(["r","l","c"])");
  EXPECT_EQ(required("#5"), R"(["r","l","c","t"])");
  GrammarCache cache;
  EXPECT_NE(*cache.Gbnf(ids, with_text), *cache.Gbnf(ids));
  EXPECT_EQ(cache.size(), 2u);
}

TEST(SchemaTest, GrammarCacheReusesByShape) {
  GrammarCache cache(2);
  auto a = Ids(3), b = Ids(4), c = Ids(5);
  auto g1 = cache.Gbnf(a);
  auto g2 = cache.Gbnf(a);
  EXPECT_EQ(g1.get(), g2.get());
  EXPECT_EQ(*g1, JudgeGbnf(a));
  cache.Gbnf(b);
  cache.Gbnf(c);  // evicts a
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_NE(cache.Gbnf(a).get(), g1.get());
  EXPECT_EQ(cache.hits(), 1u);
  EXPECT_EQ(ShapeKey(a), "#1 #2 #3");
  // Concurrent use is safe.
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&cache, t] {
      for (int i = 0; i < 200; ++i) cache.Gbnf(Ids(1 + (i + t) % 6));
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_LE(cache.size(), 2u);
}

TEST(SchemaTest, MaxAnswerBytesBoundsTheLongestAnswer) {
  auto ids = Ids(3, 8);
  std::string longest = "{";
  for (size_t i = 0; i < ids.size(); ++i) {
    std::string t;
    for (int k = 0; k < 40; ++k) t += "\xF0\x9F\x98\x80";  // 4-byte code points
    longest +=
        (i ? "," : "") +
        Item(ids[i], R"({"r":"RELEVANT","l":"UNKNOWN","c":"CONSTRUCTION","t":")" + t + "\"}");
  }
  longest += "}";
  EXPECT_GE(MaxAnswerBytes(ids), longest.size());
}

}  // namespace
}  // namespace nunchi::llm
