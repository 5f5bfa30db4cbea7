#include "engines/llama/test_model.h"

#include <unistd.h>

#include <filesystem>
#include <mutex>
#include <stdexcept>

#include "engines/llama/make_model.h"

namespace nunchi::llama::testing {

namespace fs = std::filesystem;

const std::string& TinyModelPath() {
  static const std::string path = [] {
    fs::create_directories(NUNCHI_TEST_MODEL_DIR);
    const std::string p = std::string(NUNCHI_TEST_MODEL_DIR) + "/tiny-f16.gguf";
    if (!fs::exists(p)) {
      MakeModelOptions o;
      o.shape = "tiny";
      o.quant = "F16";
      o.out = p;
      o.quiet = true;
      const Status s = MakeModel(o);
      if (!s.ok()) throw std::runtime_error("cannot make the tiny model: " + s.ToString());
    }
    return p;
  }();
  return path;
}

std::string ScratchDir(const std::string& name) {
  const fs::path dir =
      fs::path(NUNCHI_TEST_MODEL_DIR) / "scratch" / (name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

EngineOptions TinyEngineOptions() {
  EngineOptions o;
  o.model_path = TinyModelPath();
  o.threads = 1;  // the tiny model is too small to split: barriers would cost more
  o.n_ctx = 16384;
  o.n_batch = 512;
  o.max_active = 4;
  o.max_cached = 16;
  return o;
}

}  // namespace nunchi::llama::testing
