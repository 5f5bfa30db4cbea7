// Process-wide llama.cpp setup shared by everything in src/engines/llama:
// backend initialization (once), log filtering, and the identity of a model
// file. Thread-safe.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "domain/status.h"

namespace nunchi::llama {

// Initializes the llama.cpp backend once and routes its log to stderr,
// keeping only warnings and errors unless NUNCHI_LLAMA_LOG=1.
void InitLlamaRuntime();

// A stable identity of a GGUF file: "<file name>@<16 hex digits>", the hash
// covering the file size and its metadata (KV pairs and tensor layout), so two
// different models never share a prefix cache. kIo when unreadable.
Result<std::string> ModelIdentity(const std::string& path);

// FNV-1a 64-bit, the hash used for model identities and cache file checks.
uint64_t Fnv1a64(const void* data, size_t size, uint64_t seed = 14695981039346656037ull);

// Renders (role, content) messages with a chat template (a template string
// or a built-in name such as "chatml"), adding the assistant's opening when
// add_assistant. kInternal when llama.cpp does not know the template.
Result<std::string> ApplyChatTemplate(const char* tmpl,
                                      const std::vector<std::pair<std::string, std::string>>& msgs,
                                      bool add_assistant);

}  // namespace nunchi::llama
