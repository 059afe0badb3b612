// Corpus replay: runs a fuzz target's LLVMFuzzerTestOneInput on every file
// named (directories: every regular file in them, in name order) once, the
// way a libFuzzer binary does when given files.  It needs no libFuzzer, so
// the ordinary g++ build runs the corpus as a test (label `fuzz`), and the
// sanitizer build runs it under ASan and UBSan.  A failed check aborts, so
// the test fails naming the file.
//
//   fuzz_replay_<target> FILE_OR_DIR...
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

int run(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "fuzz_replay: cannot read %s\n", file.c_str());
    return 1;
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::fprintf(stderr, "fuzz_replay: %s (%zu bytes)\n", file.c_str(), bytes.size());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE_OR_DIR...\n", argv[0]);
    return 2;
  }
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path arg = argv[i];
    if (std::filesystem::is_directory(arg)) {
      for (const auto& entry : std::filesystem::directory_iterator(arg))
        if (entry.is_regular_file()) files.push_back(entry.path());
    } else if (std::filesystem::exists(arg)) {
      files.push_back(arg);
    } else {
      std::fprintf(stderr, "fuzz_replay: %s does not exist\n", argv[i]);
      return 2;
    }
  }
  std::sort(files.begin(), files.end());
  // An empty corpus would pass without testing anything.
  if (files.empty()) {
    std::fprintf(stderr, "fuzz_replay: no input files\n");
    return 1;
  }
  int failed = 0;
  for (const auto& file : files) failed += run(file);
  std::printf("fuzz_replay: %zu inputs replayed\n", files.size());
  return failed ? 1 : 0;
}
