// nunchi-extract-eval: `nunchi eval-extract` without the rest of the server.
// Usage: nunchi-extract-eval --dir DIR [--json]
#include <cstdio>
#include <string>

#include "app/cmd_eval_extract.h"

int main(int argc, char** argv) {
  std::string dir;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--json")
      json = true;
    else if (a == "--dir" && i + 1 < argc)
      dir = argv[++i];
  }
  if (dir.empty()) {
    std::fprintf(stderr, "usage: nunchi-extract-eval --dir DIR [--json]\n");
    return 2;
  }
  return nunchi::RunEvalExtract(dir, json);
}
