// The CandidateChooser hook of the field rules, with a fake chooser: it is
// asked only when the top two distinct candidates are close, what it picks
// wins, and an answer out of range or nullopt leaves the rules' choice.
#include <gtest/gtest.h>

#include "extract/candidate_chooser.h"
#include "extract/receipt_rules.h"
#include "extract/taxi_rules.h"

namespace nunchi::extract {
namespace {

class FakeChooser : public CandidateChooser {
 public:
  explicit FakeChooser(std::optional<size_t> answer) : answer_(answer) {}
  std::optional<size_t> Choose(const std::string& field, const std::vector<Candidate>& candidates,
                               const std::string& ocr_text) override {
    ++calls;
    this->field = field;
    this->candidates = candidates;
    this->ocr_text = ocr_text;
    return answer_;
  }
  int calls = 0;
  std::string field, ocr_text;
  std::vector<Candidate> candidates;

 private:
  std::optional<size_t> answer_;
};

OcrLine Line(const std::string& text, int y, int h = 20) {
  OcrLine l;
  l.text = text;
  l.box = Box{10, y, 300, h};
  l.confidence = 0.9f;
  return l;
}

// Two totals with equally strong labels: the rules cannot tell.
const std::vector<OcrLine> kCloseTotals = {Line("결제금액 12,000원", 0),
                                           Line("승인금액 12,500원", 30)};

TEST(ChooserHook, ReceiptAsksWhenTheTopTwoAreCloseAndTakesThePick) {
  FakeChooser chooser(1);
  ReceiptResult r = ReadReceiptFields(kCloseTotals, &chooser);
  EXPECT_EQ(chooser.calls, 1);
  EXPECT_EQ(chooser.field, "amount");
  ASSERT_EQ(chooser.candidates.size(), 2u);
  EXPECT_EQ(chooser.candidates[0].value, "12000");
  EXPECT_EQ(chooser.candidates[1].value, "12500");
  EXPECT_EQ(chooser.candidates[1].evidence.text, "승인금액 12,500원");
  EXPECT_NE(chooser.ocr_text.find("결제금액 12,000원\n승인금액 12,500원"), std::string::npos);
  EXPECT_EQ(r.amount.value.value_or(0), 12500);
  EXPECT_EQ(r.amount.evidence.text, "승인금액 12,500원");
}

TEST(ChooserHook, ReceiptIgnoresOutOfRangeAndNullAnswers) {
  for (std::optional<size_t> answer :
       {std::optional<size_t>(2), std::optional<size_t>(99), std::optional<size_t>()}) {
    FakeChooser chooser(answer);
    ReceiptResult r = ReadReceiptFields(kCloseTotals, &chooser);
    EXPECT_EQ(chooser.calls, 1);
    EXPECT_EQ(r.amount.value.value_or(0), 12000);  // the rules' choice: the first of equals
  }
}

TEST(ChooserHook, ReceiptDoesNotAskWhenTheRulesAreSure) {
  FakeChooser chooser(1);
  // A labelled total far ahead of an unlabelled amount.
  ReceiptResult r = ReadReceiptFields({Line("결제금액 12,000원", 0), Line("₩500", 30)}, &chooser);
  EXPECT_EQ(chooser.calls, 0);
  EXPECT_EQ(r.amount.value.value_or(0), 12000);
  // The same value twice is no disagreement.
  FakeChooser same(1);
  r = ReadReceiptFields({Line("결제금액 12,000원", 0), Line("승인금액 12,000원", 30)}, &same);
  EXPECT_EQ(same.calls, 0);
  EXPECT_EQ(r.amount.value.value_or(0), 12000);
}

TEST(ChooserHook, TaxiAsksWhenTwoFaresAreEquallyProminent) {
  std::vector<OcrLine> lines = {Line("12,300원", 0, 60), Line("15,600원", 80, 60)};
  FakeChooser chooser(1);
  Field<int64_t> fare = FareFromOcr(lines, TaxiRules{}, &chooser);
  EXPECT_EQ(chooser.calls, 1);
  EXPECT_EQ(chooser.field, "taxi_fare");
  ASSERT_EQ(chooser.candidates.size(), 2u);
  EXPECT_EQ(fare.value.value_or(0), 15600);
  EXPECT_EQ(fare.evidence.text, "15,600원");

  FakeChooser out_of_range(5);
  fare = FareFromOcr(lines, TaxiRules{}, &out_of_range);
  EXPECT_EQ(out_of_range.calls, 1);
  EXPECT_EQ(fare.value.value_or(0), 12300);
}

TEST(ChooserHook, TaxiDoesNotAskWhenTheMainNumberStandsOut) {
  std::vector<OcrLine> lines = {Line("12,300원", 0, 70), Line("기본요금 4,800원", 90, 20),
                                Line("15,600원", 120, 20)};
  FakeChooser chooser(2);
  Field<int64_t> fare = FareFromOcr(lines, TaxiRules{}, &chooser);
  EXPECT_EQ(chooser.calls, 0);
  EXPECT_EQ(fare.value.value_or(0), 12300);
}

}  // namespace
}  // namespace nunchi::extract
