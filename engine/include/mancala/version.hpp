// The toolkit's version, the git commit it was built from, and the version
// of its JSON output, for `mancala --version`, every `--json` object, the
// C interface and the Python module.
#pragma once

namespace mancala {

// The release, "MAJOR.MINOR.PATCH" (CMakeLists.txt's project version).
const char* version() noexcept;
// The git commit of the sources (12 hex digits, "+dirty" when tracked files
// differed from it), or "unknown" outside a git checkout.
const char* source_commit() noexcept;
// The version of the `--json` objects' layout: raised when a field changes
// meaning or disappears (new fields do not raise it).
//   1  the first layout with a version
inline constexpr int kJsonSchemaVersion = 1;

}  // namespace mancala
