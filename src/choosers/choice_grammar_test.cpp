// The chooser's answer format and prompt rendering, without a model.
#include "choosers/choice_grammar.h"

#include <gtest/gtest.h>

#include "choosers/chooser_prompt.h"

namespace nunchi::choosers {
namespace {

using extract::Candidate;

TEST(ChoiceGrammar, AdmitsExactlyTheIndicesAndNull) {
  EXPECT_EQ(ChoiceGrammar(3),
            "root ::= \"{\\\"choice\\\":\" ( \"null\" | \"0\" | \"1\" | \"2\" ) \"}\"\n");
  EXPECT_EQ(MaxChoiceAnswerBytes(3), std::string("{\"choice\":null}").size());
  EXPECT_EQ(MaxChoiceAnswerBytes(12), std::string("{\"choice\":null}").size());
  EXPECT_EQ(MaxChoiceAnswerBytes(100000), std::string("{\"choice\":99999}").size());
}

TEST(ChoiceGrammar, ParsesOnlyAdmittedAnswers) {
  EXPECT_EQ(ParseChoice("{\"choice\":2}", 3).index, 2u);
  EXPECT_TRUE(ParseChoice("{\"choice\":2}", 3).valid);
  EXPECT_TRUE(ParseChoice("{\"choice\":null}", 3).valid);
  EXPECT_FALSE(ParseChoice("{\"choice\":null}", 3).index);
  EXPECT_EQ(ParseChoice("{\"choice\":10}", 11).index, 10u);
  for (const char* bad : {"{\"choice\":3}", "{\"choice\": 1}", "{\"choice\":01}", "{\"choice\":-1}",
                          "{\"choice\":+1}", "{\"choice\":1} ", "{\"choice\":}", "{\"choice\":1.0}",
                          "{\"choice\":\"1\"}", "12300", "", "{\"choice\":1}}"}) {
    EXPECT_FALSE(ParseChoice(bad, 3).valid) << bad;
  }
}

Candidate Cand(const std::string& value, double score, const std::string& line) {
  return Candidate{value, score, extract::Evidence{"ocr", line, {}}};
}

TEST(ChooserPrompt, ShowsEachDistinctValueOnceInDocumentOrder) {
  std::vector<Candidate> c = {Cand("11000", 50, "합계 11,000"), Cand("12100", 90, "결제 12,100"),
                              Cand("11000", 70, "카드 11,000"), Cand("500", 10, "₩500")};
  EXPECT_EQ(ShownCandidates(c, 10), (std::vector<size_t>{1, 2, 3}));  // 11000's best is #2
  EXPECT_EQ(ShownCandidates(c, 2), (std::vector<size_t>{1, 2}));      // the best two values
  EXPECT_TRUE(ShownCandidates({}, 10).empty());
}

TEST(ChooserPrompt, RendersFieldOcrAndNumberedCandidates) {
  std::vector<Candidate> c = {Cand("11000", 50, "공급가액 11,000원"),
                              Cand("12100", 90, "결제금액\t12,100원")};
  std::string text = "스타벅스\n공급가액 11,000원\n\n결제금액 12,100원 {{candidates}}\n";
  std::string user = RenderChooserRequest("amount", c, {0, 1}, text, 3000);
  EXPECT_NE(user.find("Field: amount\n"), std::string::npos) << user;
  EXPECT_NE(user.find("OCR text:\n스타벅스\n공급가액 11,000원\n결제금액 12,100원 {{candidates}}\n"),
            std::string::npos)
      << user;
  EXPECT_NE(user.find("Candidates:\n0: 11000 (from: 공급가액 11,000원)\n"
                      "1: 12100 (from: 결제금액 12,100원)"),
            std::string::npos)
      << user;
  // The OCR text is cut at whole lines.
  std::string cut = RenderChooserRequest("amount", c, {0, 1}, text, 20);
  EXPECT_EQ(cut.find("공급가액 11,000원\n결제"), std::string::npos) << cut;
  EXPECT_STREQ(kChooserPrompt.version, "choose-v1");
  EXPECT_NE(std::string(kChooserPrompt.system).find("{\"choice\":null}"), std::string::npos);
}

}  // namespace
}  // namespace nunchi::choosers
