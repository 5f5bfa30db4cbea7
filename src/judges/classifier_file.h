// A trained ClassifierModel as a file, so that `nunchi train` can retrain the
// default judge's classifier (from the shipped data plus `nunchi
// export-labels` files) and `nunchi serve` loads it at the next start instead
// of the model compiled in. Little-endian binary: the magic "NUNCHICLF1", the
// feature config, the calibration, the bias, then the feature ids, idf and
// weights with their counts. Read checks every size against the file.
// Pure functions; safe from any thread.
#pragma once

#include <string>

#include "domain/status.h"
#include "judges/classifier.h"

namespace nunchi::judges {

Status WriteClassifierModel(const ClassifierModel& model, const std::string& path);
// kNotFound when the file is missing, kInvalidArgument when it is not a model file.
Result<ClassifierModel> ReadClassifierModel(const std::string& path);

}  // namespace nunchi::judges
