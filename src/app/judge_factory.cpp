#include "app/judge_factory.h"

#include "judges/default_judge.h"
#include "judges/router.h"

namespace nunchi {
namespace {

class Chain : public JudgeChain {
 public:
  Judge& judge() override { return *top_; }
  std::vector<std::unique_ptr<Judge>> owned_;
  Judge* top_ = nullptr;
};

}  // namespace

void AddJudgeFlags(CLI::App* cmd, JudgeOptions* o) {
  cmd->add_option("--judge", o->judge,
                  "default (rules + classifier), rules, classifier, or llm (model first, "
                  "default judge as fallback)")
      ->capture_default_str();
  cmd->add_option("--model", o->model_path, "GGUF model for the in-process llama.cpp judge");
  cmd->add_option("--threads", o->threads, "llama.cpp threads (0: all cores)")
      ->capture_default_str();
  cmd->add_option("--ctx-size", o->ctx_size, "llama.cpp context size")->capture_default_str();
  cmd->add_option("--backend", o->backend,
                  "Remote model server kind: openai, vllm, llama-server");
  cmd->add_option("--base-url", o->base_url, "Remote model server URL (http://host:port)");
  cmd->add_option("--remote-model", o->remote_model, "Model name on the remote server");
  cmd->add_option("--api-key-env", o->api_key_env, "Environment variable holding the API key")
      ->capture_default_str();
}

Result<std::unique_ptr<JudgeChain>> MakeJudgeChain(const JudgeOptions& o,
                                                   MetricsRegistry* metrics) {
  (void)metrics;
  auto chain = std::make_unique<Chain>();
  auto def = std::make_unique<judges::DefaultJudge>();
  Judge* fallback = def.get();
  chain->owned_.push_back(std::move(def));
  if (o.judge == "default") {
    chain->top_ = fallback;
  } else {
    return Status(ErrorCode::kInvalidArgument, "unknown judge '" + o.judge + "'");
  }
  return std::unique_ptr<JudgeChain>(std::move(chain));
}

}  // namespace nunchi
