#include "mancala/tables/table_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#define XXH_INLINE_ALL
#include <xxhash.h>
#include <zstd.h>

#include "packed_block.hpp"

#include <atomic>
#include <boost/crc.hpp>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <stdexcept>

#include "mancala/error.hpp"
#include "mancala/position.hpp"
#include "mancala/tables/board_index.hpp"

namespace mancala::tables {

namespace {

constexpr char kMagic[8] = {'M', 'N', 'C', 'L', 'T', 'B', 'L', '\x1a'};
constexpr std::uint8_t kIndexScheme = 1;
constexpr std::uint8_t kValueEncoding = 1;
constexpr int kMinBlockLog2 = 10;
constexpr int kMaxBlockLog2 = 24;
constexpr std::size_t kIndexEntryBytes = 16;  // end offset, XXH3-64

constexpr std::size_t kMaxDigestLength = 255;
constexpr std::size_t kHeaderReadSize = 4096;  // more than any valid header

[[noreturn]] void refuse(const std::filesystem::path& file, const std::string& why) {
  throw TableError("table file " + file.string() + ": " + why);
}

// Opens a level file for reading, refusing anything but a regular file:
// O_NONBLOCK so that a FIFO (or a tty) fails the check instead of blocking
// the open, and the check on the descriptor, not the name, so that nothing
// can be swapped in between.
int open_regular(const std::filesystem::path& file, struct stat& st) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) refuse(file, std::string("cannot open: ") + std::strerror(errno));
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    refuse(file, std::string("cannot stat: ") + std::strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    refuse(file, S_ISDIR(st.st_mode) ? "is a directory, not a level file" : "not a regular file");
  }
  return fd;
}

// C(n, r), or ~0 when it does not fit in 64 bits (an entry count read from a
// header is compared with it before any index is built).
std::uint64_t checked_binomial(int n, int r) {
  if (r < 0 || r > n) return 0;
  r = std::min(r, n - r);
  __extension__ typedef unsigned __int128 u128;  // GCC's, -Wpedantic accepts it so marked
  u128 c = 1;
  for (int i = 1; i <= r; ++i) {
    c = c * unsigned(n - r + i) / unsigned(i);  // exact: C(n-r+i, i) at every step
    if (c > ~std::uint64_t(0)) return ~std::uint64_t(0);
  }
  return std::uint64_t(c);
}

class Writer {
 public:
  template <class T>
  void put(T v) {
    for (std::size_t i = 0; i < sizeof(T); ++i) bytes.push_back(std::uint8_t(std::uint64_t(v) >> (8 * i)));
  }
  void put_bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    bytes.insert(bytes.end(), b, b + n);
  }
  std::vector<std::uint8_t> bytes;
};

class Reader {
 public:
  Reader(const std::uint8_t* p, std::size_t n, const std::filesystem::path& file) : p_(p), n_(n), file_(file) {}
  template <class T>
  T get() {
    need(sizeof(T));
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) v |= std::uint64_t(p_[pos_ + i]) << (8 * i);
    pos_ += sizeof(T);
    return T(v);
  }
  std::string get_string(std::size_t len) {
    need(len);
    std::string s(reinterpret_cast<const char*>(p_ + pos_), len);
    pos_ += len;
    return s;
  }
  std::size_t pos() const { return pos_; }

 private:
  void need(std::size_t k) {
    if (pos_ + k > n_) refuse(file_, "truncated header");
  }
  const std::uint8_t* p_;
  std::size_t n_;
  std::size_t pos_ = 0;
  const std::filesystem::path& file_;
};

std::uint32_t crc32(const void* data, std::size_t n) {
  boost::crc_32_type crc;
  crc.process_bytes(data, n);
  return crc.checksum();
}

struct ParsedHeader {
  TableHeader header;
  std::size_t header_size = 0;
  std::uint64_t index_hash = 0;  // version 2
  std::uint64_t blocks = 0;      // version 2: entries of the block index
};

std::uint64_t read_le64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t(p[i]) << (8 * i);
  return v;
}

// Blocks of 2^block_log2 values that hold `entries` (no wrap near 2^64).
std::uint64_t block_count_of(std::uint64_t entries, int block_log2) {
  return (entries >> block_log2) + ((entries & ((std::uint64_t(1) << block_log2) - 1)) != 0);
}

// Parses and checks the header's own consistency against the file size:
// `data` holds the first `available` bytes of a file of `file_size` bytes.
// Every field is range-checked here, before anything sizes an index or a
// board from it.
ParsedHeader parse_header(const std::uint8_t* data, std::size_t available, std::uint64_t file_size,
                          const std::filesystem::path& file) {
  if (available < sizeof kMagic || std::memcmp(data, kMagic, sizeof kMagic) != 0)
    refuse(file, "not a mancala table (bad magic)");
  Reader r(data, available, file);
  r.get_string(sizeof kMagic);
  const auto version = r.get<std::uint32_t>();
  if (version != 1 && version != 2)
    refuse(file, "format version " + std::to_string(version) + ", this program reads versions 1 and 2");
  ParsedHeader out;
  out.header.version = int(version);
  out.header.file_bytes = file_size;
  out.header_size = r.get<std::uint32_t>();
  const auto digest_hash = r.get<std::uint64_t>();
  const auto digest_len = r.get<std::uint16_t>();
  if (digest_len > kMaxDigestLength)
    refuse(file, "ruleset digest of " + std::to_string(digest_len) + " bytes (corrupt header)");
  out.header.digest = r.get_string(digest_len);
  out.header.pits_per_side = r.get<std::uint8_t>();
  out.header.seeds = r.get<std::uint16_t>();
  const auto scheme = r.get<std::uint8_t>();
  const auto encoding = r.get<std::uint8_t>();
  out.header.entries = r.get<std::uint64_t>();
  const auto codec = r.get<std::uint8_t>();
  std::uint64_t decoded_size = 0;
  if (version == 1) {
    out.header.stored_bytes = r.get<std::uint64_t>();
    decoded_size = r.get<std::uint64_t>();
    out.header.payload_hash = r.get<std::uint64_t>();
  } else {
    out.header.block_log2 = r.get<std::uint8_t>();
    out.header.stored_bytes = r.get<std::uint64_t>();
    out.header.payload_hash = r.get<std::uint64_t>();
    out.index_hash = r.get<std::uint64_t>();
  }
  const std::size_t crc_at = r.pos();
  const auto crc = r.get<std::uint32_t>();
  if (crc != crc32(data, crc_at)) refuse(file, "header checksum mismatch (corrupt header)");
  if (out.header_size != r.pos()) refuse(file, "inconsistent header size");
  if (digest_hash != fnv1a64(out.header.digest.data(), out.header.digest.size())) refuse(file, "ruleset digest hash mismatch");
  try {
    parse_digest(out.header.digest);
  } catch (const InputError&) {
    refuse(file, "unknown ruleset '" + out.header.digest + "'");
  }
  const int m = out.header.pits_per_side, k = out.header.seeds;
  if (m < 1 || m > kMaxPitsPerSide)
    refuse(file, "header says " + std::to_string(m) + " pits a side; tables have 1 to " + std::to_string(kMaxPitsPerSide));
  if (k > kMaxTableSeeds)
    refuse(file, "header says level " + std::to_string(k) + "; tables hold levels 0 to " + std::to_string(kMaxTableSeeds));
  if (scheme != kIndexScheme) refuse(file, "unknown index scheme " + std::to_string(scheme));
  if (encoding != kValueEncoding) refuse(file, "unknown value encoding " + std::to_string(encoding));
  if (codec != std::uint8_t(Codec::None) && (version == 1 || (codec != std::uint8_t(Codec::Zstd) && codec != std::uint8_t(Codec::Packed))))
    refuse(file, "unknown payload codec " + std::to_string(codec));
  out.header.codec = Codec(codec);
  const std::uint64_t level_size = checked_binomial(k + 2 * m - 1, 2 * m - 1);
  if (level_size == ~std::uint64_t(0) || out.header.entries != level_size)
    refuse(file, "entry count " + std::to_string(out.header.entries) + " is not the size of level " + std::to_string(k) +
                     " of " + std::to_string(m) + " pits a side (" + std::to_string(level_size) + ")");
  std::uint64_t index_bytes = 0;
  if (version == 1) {
    if (decoded_size != out.header.stored_bytes || out.header.stored_bytes != out.header.entries)
      refuse(file, "payload size does not match the entry count");
  } else {
    const int b = out.header.block_log2;
    if (b < kMinBlockLog2 || b > kMaxBlockLog2)
      refuse(file, "block size 2^" + std::to_string(b) + " out of range (2^" + std::to_string(kMinBlockLog2) + " to 2^" +
                       std::to_string(kMaxBlockLog2) + ")");
    out.blocks = block_count_of(out.header.entries, b);
    index_bytes = out.blocks * kIndexEntryBytes;
    if (out.header.codec == Codec::None && out.header.stored_bytes != out.header.entries)
      refuse(file, "payload size does not match the entry count");
    // A compressed payload is never more than the codecs' bounds of the
    // values (zstd's: 1/128 more and a frame header a block; packed: 1/16
    // more and a run's padding a block), the sum in 128 bits: forged counts
    // near 2^64 must not wrap.
    __extension__ typedef unsigned __int128 u128;
    if (u128(out.header.stored_bytes) > u128(out.header.entries) + out.header.entries / 16 + u128(out.blocks) * 1024)
      refuse(file, "payload size " + std::to_string(out.header.stored_bytes) + " is impossible for " +
                       std::to_string(out.header.entries) + " values");
  }
  // In 128 bits, so that no forged size can wrap around to the file's.
  __extension__ typedef unsigned __int128 u128;
  const u128 expected = u128(out.header_size) + u128(index_bytes) + u128(out.header.stored_bytes);
  if (u128(file_size) != expected)
    refuse(file, "file is " + std::to_string(file_size) + " bytes, header says " +
                     (expected >> 64 ? std::string("more than 2^64") : std::to_string(std::uint64_t(expected))) +
                     " (truncated or extended)");
  return out;
}

// Write errors: bad input (a full disk, a directory in the way), not bad
// tables, so InputError rather than TableError.
[[noreturn]] void write_failed(const std::filesystem::path& file, const std::string& why) {
  throw InputError("table file " + file.string() + ": " + why);
}

void sync_directory(const std::filesystem::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

}  // namespace

std::filesystem::path level_path(const std::filesystem::path& dir, int seeds) {
  char name[32];
  std::snprintf(name, sizeof name, "level_%03d.mtb", seeds);
  return dir / name;
}

bool level_file_exists(const std::filesystem::path& file) {
  std::error_code ec;
  const bool there = std::filesystem::exists(file, ec);
  if (ec) refuse(file, "cannot access: " + ec.message());
  // A symbolic link to nothing is a level file that cannot be read, not a
  // level that is not there.  Taken for absent, one in place of the top
  // level silently lowered the tables' top, and one in place of a lower
  // level was named a missing file.
  if (!there && std::filesystem::is_symlink(std::filesystem::symlink_status(file, ec)))
    refuse(file, "cannot access: a symbolic link to nothing (" + std::filesystem::read_symlink(file, ec).string() + ")");
  return there;
}

std::uint64_t fnv1a64_continue(std::uint64_t h, const void* data, std::size_t size) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  for (std::size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

std::uint64_t fnv1a64(const void* data, std::size_t size) { return fnv1a64_continue(kFnv1a64Offset, data, size); }

namespace {

// The version 2 header of a level file.
std::vector<std::uint8_t> level_header(const Ruleset& rules, int pits_per_side, int seeds, std::uint64_t entries,
                                       const LevelFormat& format, std::uint64_t stored, std::uint64_t payload_hash,
                                       std::uint64_t index_hash) {
  const std::string digest = rules.digest();
  Writer w;
  w.put_bytes(kMagic, sizeof kMagic);
  w.put(kTableFormatVersion);
  w.put(std::uint32_t(0));  // header size, patched below
  w.put(fnv1a64(digest.data(), digest.size()));
  w.put(std::uint16_t(digest.size()));
  w.put_bytes(digest.data(), digest.size());
  w.put(std::uint8_t(pits_per_side));
  w.put(std::uint16_t(seeds));
  w.put(kIndexScheme);
  w.put(kValueEncoding);
  w.put(entries);
  w.put(std::uint8_t(format.codec));
  w.put(std::uint8_t(format.block_log2));
  w.put(stored);
  w.put(payload_hash);
  w.put(index_hash);
  const std::uint32_t header_size = std::uint32_t(w.bytes.size() + 4);
  for (int i = 0; i < 4; ++i) w.bytes[12 + std::size_t(i)] = std::uint8_t(header_size >> (8 * i));
  w.put(crc32(w.bytes.data(), w.bytes.size()));
  return w.bytes;
}

void check_format(const LevelFormat& format) {
  if (format.block_log2 < kMinBlockLog2 || format.block_log2 > kMaxBlockLog2)
    throw InputError("block size 2^" + std::to_string(format.block_log2) + " out of range (2^" + std::to_string(kMinBlockLog2) +
                     " to 2^" + std::to_string(kMaxBlockLog2) + ")");
  if (format.codec == Codec::Zstd && (format.zstd_level < 1 || format.zstd_level > ZSTD_maxCLevel()))
    throw InputError("zstd level must be between 1 and " + std::to_string(ZSTD_maxCLevel()));
}

// pwrite(2) of all n bytes at offset, or an InputError naming the file.
void write_all_at(int fd, const std::filesystem::path& file, std::uint64_t offset, const void* p, std::size_t n) {
  const auto* b = static_cast<const char*>(p);
  while (n > 0) {
    const ssize_t k = ::pwrite(fd, b, n, off_t(offset));
    if (k < 0) {
      if (errno == EINTR) continue;
      write_failed(file, std::string("write failed: ") + std::strerror(errno));
    }
    b += k;
    n -= std::size_t(k);
    offset += std::uint64_t(k);
  }
}

std::vector<std::uint8_t> index_bytes(const std::vector<std::uint64_t>& index) {
  Writer w;
  for (const std::uint64_t v : index) w.put(v);
  return w.bytes;
}

}  // namespace

const char* codec_name(Codec codec) {
  switch (codec) {
    case Codec::Zstd: return "zstd";
    case Codec::Packed: return "packed";
    case Codec::None: break;
  }
  return "none";
}

Codec parse_codec(const std::string& name) {
  if (name == "none") return Codec::None;
  if (name == "zstd") return Codec::Zstd;
  if (name == "packed") return Codec::Packed;
  throw InputError("unknown compression '" + name + "' (none, zstd, packed)");
}

LevelFileWriter::LevelFileWriter(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side, int seeds,
                                 std::uint64_t entries, const LevelFormat& format)
    : dir_(dir), file_(level_path(dir, seeds)), tmp_(file_.string() + ".tmp"), rules_(rules), pits_per_side_(pits_per_side),
      seeds_(seeds), format_(format), entries_(entries), hash_(kFnv1a64Offset) {
  check_format(format_);
  // A fresh file, not the inode of a .tmp that a process being stopped may
  // still hold open.
  ::unlink(tmp_.c_str());
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) write_failed(tmp_, std::string("cannot create: ") + std::strerror(errno));
  // The header's and the index's sizes do not depend on the values: write
  // placeholders now, the real ones at the end.
  header_size_ = level_header(rules_, pits_per_side_, seeds_, entries_, format_, 0, 0, 0).size() +
                 block_count_of(entries_, format_.block_log2) * kIndexEntryBytes;
  const std::vector<std::uint8_t> zeros(header_size_, 0);
  write_all(zeros.data(), zeros.size());
}

LevelFileWriter::~LevelFileWriter() {
  // Not finished: the .tmp stays (never taken for a level file; the next
  // write of the level replaces it).  Removing it here could remove the file
  // of a newer run, when this one is being stopped as that one starts.
  if (fd_ >= 0) ::close(fd_);
}

void LevelFileWriter::write_all(const void* p, std::size_t n) {
  const auto* b = static_cast<const char*>(p);
  while (n > 0) {
    const ssize_t k = ::write(fd_, b, n);
    if (k < 0) {
      if (errno == EINTR) continue;
      const std::string why = std::strerror(errno);
      ::close(fd_);
      fd_ = -1;
      ::unlink(tmp_.c_str());
      write_failed(tmp_, "write failed: " + why);
    }
    b += k;
    n -= std::size_t(k);
  }
}

CodedBlocks code_blocks(const std::int8_t* values, std::uint64_t n, const LevelFormat& format) {
  check_format(format);
  const std::size_t block = std::size_t(1) << format.block_log2;
  const std::size_t blocks = std::size_t((n + block - 1) / block);
  std::vector<std::uint64_t> hashes(blocks);
  std::vector<std::vector<std::uint8_t>> coded(format.codec == Codec::None ? 0 : blocks);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, blocks, 1), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t b = r.begin(); b != r.end(); ++b) {
      const std::int8_t* v = values + b * block;
      const std::size_t len = std::min<std::uint64_t>(block, n - b * block);
      hashes[b] = XXH3_64bits(v, len);
      if (format.codec == Codec::Zstd) {
        std::vector<std::uint8_t>& out = coded[b];
        out.resize(ZSTD_compressBound(len));
        const std::size_t got = ZSTD_compress(out.data(), out.size(), v, len, format.zstd_level);
        if (ZSTD_isError(got)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(got));
        out.resize(got);
      } else if (format.codec == Codec::Packed) {
        coded[b] = packed::encode(v, len);
      }
    }
  });
  CodedBlocks out;
  out.index.reserve(2 * blocks);
  for (std::size_t b = 0; b < blocks; ++b) {
    if (format.codec == Codec::None) {
      out.stored_bytes += std::min<std::uint64_t>(block, n - b * block);
    } else {
      out.stored.insert(out.stored.end(), coded[b].begin(), coded[b].end());
      out.stored_bytes += coded[b].size();
      std::vector<std::uint8_t>().swap(coded[b]);
    }
    out.index.push_back(out.stored_bytes);
    out.index.push_back(hashes[b]);
  }
  return out;
}

void LevelFileWriter::write_blocks(const std::int8_t* values, std::size_t n) {
  const CodedBlocks coded = code_blocks(values, n, format_);
  if (format_.codec == Codec::None)
    write_all(values, n);
  else
    write_all(coded.stored.data(), coded.stored.size());
  for (std::size_t i = 0; i < coded.index.size(); i += 2) {
    index_.push_back(stored_ + coded.index[i]);
    index_.push_back(coded.index[i + 1]);
  }
  stored_ += coded.stored_bytes;
}

std::uint64_t level_file_prefix_bytes(const Ruleset& rules, int pits_per_side, int seeds, std::uint64_t entries,
                                      const LevelFormat& format) {
  check_format(format);
  return level_header(rules, pits_per_side, seeds, entries, format, 0, 0, 0).size() +
         block_count_of(entries, format.block_log2) * kIndexEntryBytes;
}

std::filesystem::path create_level_tmp(const std::filesystem::path& dir, int seeds, std::uint64_t bytes) {
  const std::filesystem::path tmp = level_path(dir, seeds).string() + ".tmp";
  ::unlink(tmp.c_str());  // a fresh inode, as LevelFileWriter's
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) write_failed(tmp, std::string("cannot create: ") + std::strerror(errno));
  // Blocks allocated now, so that a full disk is found here, not mid-way.
  const int e = ::posix_fallocate(fd, 0, off_t(bytes));
  if (e != 0 && e != EOPNOTSUPP && e != EINVAL) {
    ::close(fd);
    ::unlink(tmp.c_str());
    write_failed(tmp, std::string("cannot allocate ") + std::to_string(bytes) + " bytes: " + std::strerror(e));
  }
  if ((e != 0 && ::ftruncate(fd, off_t(bytes)) != 0) || ::close(fd) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    write_failed(tmp, "cannot size: " + why);
  }
  return tmp;
}

void write_level_part(const std::filesystem::path& tmp, std::uint64_t offset, const void* data, std::size_t n) {
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) write_failed(tmp, std::string("cannot open: ") + std::strerror(errno));
  try {
    write_all_at(fd, tmp, offset, data, n);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) write_failed(tmp, std::string("sync failed: ") + std::strerror(errno));
}

void finish_level_tmp(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side, int seeds,
                      std::uint64_t entries, const LevelFormat& format, std::uint64_t stored_bytes, std::uint64_t content_hash,
                      const std::vector<std::uint64_t>& index) {
  const std::filesystem::path file = level_path(dir, seeds), tmp = file.string() + ".tmp";
  if (index.size() != 2 * block_count_of(entries, format.block_log2))
    throw std::logic_error("finish_level_tmp: " + std::to_string(index.size() / 2) + " index entries for level " + std::to_string(seeds));
  const std::vector<std::uint8_t> bytes = index_bytes(index);
  std::vector<std::uint8_t> head =
      level_header(rules, pits_per_side, seeds, entries, format, stored_bytes, content_hash, XXH3_64bits(bytes.data(), bytes.size()));
  head.insert(head.end(), bytes.begin(), bytes.end());
  write_level_part(tmp, 0, head.data(), head.size());
  if (::rename(tmp.c_str(), file.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    write_failed(file, "cannot rename " + tmp.filename().string() + " into place: " + why);
  }
  sync_directory(dir);
}

void LevelFileWriter::append(const std::int8_t* values, std::size_t n) {
  if (fd_ < 0) throw std::logic_error("LevelFileWriter: append after finish");
  if (written_ + n > entries_) throw std::logic_error("LevelFileWriter: more values than the level holds");
  hash_ = fnv1a64_continue(hash_, values, n);
  written_ += n;
  const std::size_t block = std::size_t(1) << format_.block_log2;
  if (!pending_.empty()) {  // complete the block begun by the last append
    const std::size_t take = std::min(n, block - pending_.size());
    pending_.insert(pending_.end(), values, values + take);
    values += take;
    n -= take;
    if (pending_.size() == block || written_ == entries_) {
      write_blocks(pending_.data(), pending_.size());
      pending_.clear();
    }
    if (!pending_.empty()) return;  // every value went into the block begun
  }
  const std::size_t whole = written_ == entries_ ? n : n / block * block;
  write_blocks(values, whole);
  pending_.assign(values + whole, values + n);
}

void LevelFileWriter::finish() {
  if (fd_ < 0) throw std::logic_error("LevelFileWriter: finish twice");
  if (written_ != entries_) throw std::logic_error("LevelFileWriter: " + std::to_string(written_) + " values of " + std::to_string(entries_));
  const std::vector<std::uint8_t> index = index_bytes(index_);
  std::vector<std::uint8_t> head =
      level_header(rules_, pits_per_side_, seeds_, entries_, format_, stored_, hash_, XXH3_64bits(index.data(), index.size()));
  head.insert(head.end(), index.begin(), index.end());
  if (head.size() != header_size_) throw std::logic_error("LevelFileWriter: the index is not the size it was given");
  if (::lseek(fd_, 0, SEEK_SET) != 0) write_failed(tmp_, std::string("seek failed: ") + std::strerror(errno));
  write_all(head.data(), head.size());
  const int fd = fd_;
  fd_ = -1;
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp_.c_str());
    write_failed(tmp_, "sync failed: " + why);
  }
  // rename(2), not std::filesystem::rename: its failure (a directory in the
  // way, a vanished directory) is an input error naming the file.
  if (::rename(tmp_.c_str(), file_.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp_.c_str());
    write_failed(file_, "cannot rename " + tmp_.filename().string() + " into place: " + why);
  }
  sync_directory(dir_);
}

void write_level(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side, int seeds,
                 const std::vector<std::int8_t>& values, const LevelFormat& format) {
  LevelFileWriter writer(dir, rules, pits_per_side, seeds, values.size(), format);
  writer.append(values.data(), values.size());
  writer.finish();
}

TableHeader read_header(const std::filesystem::path& file) {
  struct stat st {};
  const int fd = open_regular(file, st);
  if (st.st_size == 0) {
    ::close(fd);
    refuse(file, "empty file");
  }
  // The header only: the first bytes of the file, never more than it holds.
  std::vector<std::uint8_t> head(std::min<std::uint64_t>(std::uint64_t(st.st_size), kHeaderReadSize));
  const ssize_t got = ::pread(fd, head.data(), head.size(), 0);
  ::close(fd);
  if (got != ssize_t(head.size())) refuse(file, "cannot read the header");
  return parse_header(head.data(), head.size(), std::uint64_t(st.st_size), file).header;
}

namespace {

// SIGBUS on a mapped level file: the file was truncated (or rewritten in
// place) by another program after it was mapped, and a page past its new
// end was read.  The handler runs on the faulting thread in the middle of
// any read of the values, so it may only use async-signal-safe calls: it
// looks the address up in a fixed table of mappings (atomics, no locks, no
// allocation), writes the message prepared when the file was mapped and
// calls _exit(2).  A SIGBUS elsewhere goes to the handler it replaced (or the
// default action: a core dump, as before).
struct BusRange {
  std::atomic<bool> taken{false};
  std::atomic<std::uintptr_t> begin{0}, end{0};  // [begin, end); begin 0: not published
  std::atomic<const char*> message{nullptr};
  std::atomic<std::size_t> length{0};
};
constexpr int kBusRanges = 1024;  // 128 levels in several directories at once; beyond, no message
BusRange bus_ranges[kBusRanges];
struct sigaction previous_bus_action {};
std::once_flag bus_handler_installed;

void on_bus_error(int sig, siginfo_t* info, void* context) {
  const auto at = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (BusRange& r : bus_ranges) {
    const std::uintptr_t begin = r.begin.load(std::memory_order_acquire);
    if (begin == 0 || at < begin || at >= r.end.load(std::memory_order_relaxed)) continue;
    // One line even when several threads fault at once (a parallel read of
    // the file): the first writes it and ends the process, the others wait
    // for that (an _exit of theirs could cut the line short).
    static std::atomic<bool> reporting{false};
    if (reporting.exchange(true))
      for (;;) ::pause();
    const char* text = r.message.load(std::memory_order_relaxed);
    std::size_t left = r.length.load(std::memory_order_relaxed);
    while (left > 0) {
      const ssize_t k = ::write(STDERR_FILENO, text, left);
      if (k <= 0) break;
      text += k;
      left -= std::size_t(k);
    }
    ::_exit(2);
  }
  if ((previous_bus_action.sa_flags & SA_SIGINFO) && previous_bus_action.sa_sigaction) {
    previous_bus_action.sa_sigaction(sig, info, context);
    return;
  }
  if (previous_bus_action.sa_handler != SIG_DFL && previous_bus_action.sa_handler != SIG_IGN) {
    previous_bus_action.sa_handler(sig);
    return;
  }
  // Default action: a fault repeats on return and now kills; a SIGBUS sent
  // by kill(2) does not repeat, so it is raised again (pending until return).
  ::signal(SIGBUS, SIG_DFL);
  if (info->si_code <= 0) ::raise(SIGBUS);
}

void install_bus_handler() {
  struct sigaction action {};
  action.sa_sigaction = on_bus_error;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGBUS, &action, &previous_bus_action);
}

// "<program>: error: table file F: changed while in use ...": one line, as
// every other error (control characters in the path shown as '?').
std::string bus_message(const std::filesystem::path& file) {
  std::string name;
  for (const unsigned char c : file.string()) name += (c < 0x20 || c == 0x7f) ? '?' : char(c);
  return std::string(program_invocation_short_name) + ": error: table file " + name +
         ": changed while in use (truncated or rewritten in place by another program; bus error reading it)\n";
}

int publish_bus_range(const void* map, std::size_t size, const std::string& message) {
  std::call_once(bus_handler_installed, install_bus_handler);
  for (int i = 0; i < kBusRanges; ++i) {
    bool expected = false;
    if (!bus_ranges[i].taken.compare_exchange_strong(expected, true)) continue;
    BusRange& r = bus_ranges[i];
    r.message.store(message.data(), std::memory_order_relaxed);
    r.length.store(message.size(), std::memory_order_relaxed);
    r.end.store(reinterpret_cast<std::uintptr_t>(map) + size, std::memory_order_relaxed);
    r.begin.store(reinterpret_cast<std::uintptr_t>(map), std::memory_order_release);
    return i;
  }
  return -1;
}

void withdraw_bus_range(int slot) {
  if (slot < 0) return;
  BusRange& r = bus_ranges[slot];
  r.begin.store(0, std::memory_order_release);
  r.taken.store(false, std::memory_order_release);
}

}  // namespace

// A decoded block of a compressed level, and the decoder that filled it.
struct MappedLevel::Block {
  std::mutex lock;
  std::uint64_t block = ~std::uint64_t(0);  // none yet
  std::vector<std::int8_t> values;
  ZSTD_DCtx* decoder = nullptr;
  ~Block() { ZSTD_freeDCtx(decoder); }
};

namespace {
// Slots of a compressed level's block cache: 64 blocks of 2^16 values hold
// 4 MiB a level, enough for a probe's next few hundred neighbours.
constexpr std::size_t kCacheSlots = 64;
}  // namespace

MappedLevel::MappedLevel(const std::filesystem::path& file, const Ruleset& rules, int pits_per_side, int seeds, Opening opening)
    : file_(file), checked_at_open_(opening == Opening::Whole) {
  struct stat st {};
  const int fd = open_regular(file, st);
  if (st.st_size == 0) {
    ::close(fd);
    refuse(file, "empty file");
  }
  map_size_ = std::size_t(st.st_size);
  map_ = ::mmap(nullptr, map_size_, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (map_ == MAP_FAILED) {
    map_ = nullptr;
    refuse(file, "cannot map");
  }
  // Published before the first read: the file may be cut short at any time.
  bus_message_ = bus_message(file);
  bus_slot_ = publish_bus_range(map_, map_size_, bus_message_);
  try {
    const auto* data = static_cast<const std::uint8_t*>(map_);
    const ParsedHeader parsed = parse_header(data, map_size_, map_size_, file);
    header_ = parsed.header;
    if (header_.digest != rules.digest())
      refuse(file, "built for ruleset '" + header_.digest + "', not '" + rules.digest() + "'");
    if (header_.pits_per_side != pits_per_side)
      refuse(file, "built for " + std::to_string(header_.pits_per_side) + " pits a side, not " + std::to_string(pits_per_side));
    if (header_.seeds != seeds) refuse(file, "holds level " + std::to_string(header_.seeds) + ", not " + std::to_string(seeds));
    const BoardIndex index(2 * pits_per_side, seeds);
    if (header_.entries != index.level_size(seeds)) refuse(file, "entry count does not match the level size");
    if (header_.version == 1) {
      // One block: checked at open however the file is opened.
      checked_at_open_ = true;
      values_ = reinterpret_cast<const std::int8_t*>(data + parsed.header_size);
      if (fnv1a64(values_, header_.entries) != header_.payload_hash) refuse(file, "payload checksum mismatch (corrupt data)");
    } else {
      index_ = data + parsed.header_size;
      payload_ = index_ + parsed.blocks * kIndexEntryBytes;
      if (XXH3_64bits(index_, parsed.blocks * kIndexEntryBytes) != parsed.index_hash)
        refuse(file, "block index checksum mismatch (corrupt index)");
      const std::uint64_t block = std::uint64_t(1) << header_.block_log2;
      std::uint64_t at = 0;
      for (std::uint64_t b = 0; b < parsed.blocks; ++b) {
        const std::uint64_t end = read_le64(index_ + b * kIndexEntryBytes);
        const std::uint64_t len = std::min(block, header_.entries - b * block);
        if (end <= at || end > header_.stored_bytes || (header_.codec == Codec::None && end - at != len))
          refuse(file, "block index entry " + std::to_string(b) + " is out of order (corrupt index)");
        at = end;
      }
      if (at != header_.stored_bytes) refuse(file, "block index does not add up to the payload size (corrupt index)");
      if (!checked_at_open_) {
        // Slices: each block is checked when read() decodes it.
      } else if (header_.codec == Codec::None) {
        values_ = reinterpret_cast<const std::int8_t*>(payload_);
        std::atomic<std::uint64_t> bad{~std::uint64_t(0)};
        tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, parsed.blocks, 16), [&](const tbb::blocked_range<std::uint64_t>& r) {
          for (std::uint64_t b = r.begin(); b != r.end(); ++b) {
            const std::uint64_t len = std::min(block, header_.entries - b * block);
            if (XXH3_64bits(values_ + b * block, len) != read_le64(index_ + b * kIndexEntryBytes + 8)) {
              std::uint64_t seen = bad.load();
              while (b < seen && !bad.compare_exchange_weak(seen, b)) {
              }
            }
          }
        });
        if (bad != ~std::uint64_t(0))
          refuse(file, "block " + std::to_string(bad.load()) + " checksum mismatch (corrupt data)");
      } else if (header_.codec == Codec::Packed) {
        // Every block decoded and checked now, as raw blocks are: a value is
        // then read in place (packed_block.hpp) without a check of its own.
        // The first bad block is named (decoded again, for its error).
        std::atomic<std::uint64_t> bad{~std::uint64_t(0)};
        tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, parsed.blocks, 4), [&](const tbb::blocked_range<std::uint64_t>& r) {
          std::vector<std::int8_t> values(block);
          for (std::uint64_t b = r.begin(); b != r.end(); ++b) {
            try {
              decode_block(b, values.data(), nullptr);
            } catch (const TableError&) {
              std::uint64_t seen = bad.load();
              while (b < seen && !bad.compare_exchange_weak(seen, b)) {
              }
            }
          }
        });
        if (bad != ~std::uint64_t(0)) {
          std::vector<std::int8_t> values(block);
          decode_block(bad.load(), values.data(), nullptr);
        }
      } else {
        cache_ = std::make_unique<Block[]>(kCacheSlots);
      }
    }
  } catch (...) {
    withdraw_bus_range(bus_slot_);
    ::munmap(map_, map_size_);
    map_ = nullptr;
    throw;
  }
}

MappedLevel::~MappedLevel() {
  withdraw_bus_range(bus_slot_);
  if (map_) ::munmap(map_, map_size_);
}

std::uint64_t MappedLevel::block_count() const {
  return header_.version == 1 ? 1 : block_count_of(header_.entries, header_.block_log2);
}

void MappedLevel::decode_block(std::uint64_t b, std::int8_t* out, void* context) const {
  const std::uint64_t block = std::uint64_t(1) << header_.block_log2;
  const std::uint64_t len = std::min(block, header_.entries - b * block);
  const std::uint64_t begin = b == 0 ? 0 : read_le64(index_ + (b - 1) * kIndexEntryBytes);
  const std::uint64_t end = read_le64(index_ + b * kIndexEntryBytes);
  const auto corrupt = [&](const std::string& why) {
    refuse(file_, "block " + std::to_string(b) + " (ranks " + std::to_string(b * block) + " to " + std::to_string(b * block + len - 1) +
                      ") " + why + " (corrupt data)");
  };
  if (header_.codec == Codec::None) {
    std::memcpy(out, payload_ + begin, len);
  } else if (header_.codec == Codec::Packed) {
    if (!packed::decode(payload_ + begin, end - begin, len, out)) corrupt("does not decode");
  } else {
    auto* decoder = static_cast<ZSTD_DCtx*>(context);
    const std::size_t got = ZSTD_decompressDCtx(decoder, out, len, payload_ + begin, end - begin);
    if (ZSTD_isError(got)) corrupt(std::string("does not decode: ") + ZSTD_getErrorName(got));
    if (got != len) corrupt("decodes to " + std::to_string(got) + " values, not " + std::to_string(len));
  }
  if (XXH3_64bits(out, len) != read_le64(index_ + b * kIndexEntryBytes + 8)) corrupt("checksum mismatch");
}

int MappedLevel::cached_value(std::uint64_t rank) const {
  if (!checked_at_open_) throw std::logic_error("MappedLevel: value() of a file opened for slices (use read())");
  const std::uint64_t b = rank >> header_.block_log2;
  if (header_.codec == Codec::Packed) {  // read in place: every block was checked at open
    const std::uint64_t block = std::uint64_t(1) << header_.block_log2;
    const std::uint64_t begin = b == 0 ? 0 : read_le64(index_ + (b - 1) * kIndexEntryBytes);
    return packed::value(payload_ + begin, std::size_t(std::min(block, header_.entries - b * block)), std::size_t(rank & (block - 1)));
  }
  Block& slot = cache_[b % kCacheSlots];
  const std::lock_guard<std::mutex> hold(slot.lock);
  if (slot.block != b) {
    if (!slot.decoder) slot.decoder = ZSTD_createDCtx();
    if (!slot.decoder) throw std::bad_alloc();
    slot.values.resize(std::size_t(1) << header_.block_log2);
    slot.block = ~std::uint64_t(0);  // until it is decoded and checked
    decode_block(b, slot.values.data(), slot.decoder);
    slot.block = b;
  }
  return slot.values[rank & ((std::uint64_t(1) << header_.block_log2) - 1)];
}

void MappedLevel::read(std::uint64_t first, std::uint64_t n, std::int8_t* out) const {
  read_blocks(first, n, out, !checked_at_open_);
}

void MappedLevel::read_blocks(std::uint64_t first, std::uint64_t n, std::int8_t* out, bool recheck) const {
  if (first > header_.entries || n > header_.entries - first) throw std::out_of_range("MappedLevel::read past the level");
  if (n == 0) return;  // `out` may be null then (an empty slice's data())
  if (values_ && (header_.version == 1 || !recheck)) {  // raw blocks were checked at open
    std::memcpy(out, values_ + first, n);
    return;
  }
  const int shift = header_.block_log2;
  const std::uint64_t block = std::uint64_t(1) << shift;
  const std::uint64_t last = first + n;
  // Blocks decoded in parallel, each by its own decoder, straight into out
  // when it is wholly wanted.
  const std::uint64_t b0 = first >> shift, b1 = (last - 1) >> shift;
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(b0, b1 + 1, 1), [&](const tbb::blocked_range<std::uint64_t>& r) {
    ZSTD_DCtx* decoder = ZSTD_createDCtx();
    if (!decoder) throw std::bad_alloc();
    std::vector<std::int8_t> buffer;
    try {
      for (std::uint64_t b = r.begin(); b != r.end(); ++b) {
        const std::uint64_t lo = b * block, hi = std::min(lo + block, header_.entries);
        if (lo >= first && hi <= last) {
          decode_block(b, out + (lo - first), decoder);
          continue;
        }
        buffer.resize(block);
        decode_block(b, buffer.data(), decoder);
        const std::uint64_t a = std::max(lo, first), z = std::min(hi, last);
        std::memcpy(out + (a - first), buffer.data() + (a - lo), z - a);
      }
    } catch (...) {
      ZSTD_freeDCtx(decoder);
      throw;
    }
    ZSTD_freeDCtx(decoder);
  });
}

void MappedLevel::check_payload() const {
  if (header_.version == 1) {
    if (fnv1a64(values_, header_.entries) != header_.payload_hash) refuse(file_, "payload checksum mismatch (corrupt data)");
    return;
  }
  // A chunk of blocks at a time: decoded (and each block's hash checked) in
  // parallel, then hashed in order.
  const std::uint64_t chunk = std::uint64_t(256) << header_.block_log2;
  std::vector<std::int8_t> values(std::min(chunk, header_.entries));
  std::uint64_t h = kFnv1a64Offset;
  for (std::uint64_t at = 0; at < header_.entries; at += chunk) {
    const std::uint64_t n = std::min(chunk, header_.entries - at);
    read_blocks(at, n, values.data(), true);
    h = fnv1a64_continue(h, values.data(), n);
  }
  if (h != header_.payload_hash) refuse(file_, "content hash mismatch (corrupt data)");
}

}  // namespace mancala::tables
