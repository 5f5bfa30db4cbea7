// The versioned prompt files of prompts/<version>/ as compiled into the binary
// by embed_prompts.cmake (system.txt, context.txt, request.txt per version).
// Immutable static data; safe from any thread. Internal to nunchi_llm: use
// prompt.h.
#pragma once

#include <cstddef>

namespace nunchi::llm {

struct EmbeddedPrompt {
  const char* version;
  const char* system;   // instructions, identical for every request
  const char* context;  // template: {{spot_name}}, {{spot_description}}, {{thread}}
  const char* request;  // template: {{now}}, {{targets}}
};

extern const EmbeddedPrompt kEmbeddedPrompts[];
extern const size_t kEmbeddedPromptCount;

}  // namespace nunchi::llm
