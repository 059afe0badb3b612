#include "mancala/tables/table_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/crc.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "mancala/error.hpp"
#include "mancala/tables/board_index.hpp"

namespace mancala::tables {

namespace {

constexpr char kMagic[8] = {'M', 'N', 'C', 'L', 'T', 'B', 'L', '\x1a'};
constexpr std::uint8_t kIndexScheme = 1;
constexpr std::uint8_t kValueEncoding = 1;
constexpr std::uint8_t kCodecRaw = 0;

[[noreturn]] void refuse(const std::filesystem::path& file, const std::string& why) {
  throw InputError("table file " + file.string() + ": " + why);
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
  std::uint64_t payload_size = 0;
};

// Parses and checks the header's own consistency against the file size.
ParsedHeader parse_header(const std::uint8_t* data, std::size_t file_size, const std::filesystem::path& file) {
  if (file_size < sizeof kMagic || std::memcmp(data, kMagic, sizeof kMagic) != 0)
    refuse(file, "not a mancala table (bad magic)");
  Reader r(data, file_size, file);
  r.get_string(sizeof kMagic);
  const auto version = r.get<std::uint32_t>();
  if (version != kTableFormatVersion)
    refuse(file, "format version " + std::to_string(version) + ", this program reads version " +
                     std::to_string(kTableFormatVersion));
  ParsedHeader out;
  out.header_size = r.get<std::uint32_t>();
  const auto digest_hash = r.get<std::uint64_t>();
  const auto digest_len = r.get<std::uint16_t>();
  out.header.digest = r.get_string(digest_len);
  out.header.pits_per_side = r.get<std::uint8_t>();
  out.header.seeds = r.get<std::uint16_t>();
  const auto scheme = r.get<std::uint8_t>();
  const auto encoding = r.get<std::uint8_t>();
  out.header.entries = r.get<std::uint64_t>();
  const auto codec = r.get<std::uint8_t>();
  out.payload_size = r.get<std::uint64_t>();
  const auto decoded_size = r.get<std::uint64_t>();
  out.header.payload_hash = r.get<std::uint64_t>();
  const std::size_t crc_at = r.pos();
  const auto crc = r.get<std::uint32_t>();
  if (crc != crc32(data, crc_at)) refuse(file, "header checksum mismatch (corrupt header)");
  if (out.header_size != r.pos()) refuse(file, "inconsistent header size");
  if (digest_hash != fnv1a64(out.header.digest.data(), out.header.digest.size())) refuse(file, "ruleset digest hash mismatch");
  if (scheme != kIndexScheme) refuse(file, "unknown index scheme " + std::to_string(scheme));
  if (encoding != kValueEncoding) refuse(file, "unknown value encoding " + std::to_string(encoding));
  if (codec != kCodecRaw) refuse(file, "unknown payload codec " + std::to_string(codec));
  if (decoded_size != out.payload_size || out.payload_size != out.header.entries)
    refuse(file, "payload size does not match the entry count");
  if (file_size != out.header_size + out.payload_size)
    refuse(file, "file is " + std::to_string(file_size) + " bytes, header says " +
                     std::to_string(out.header_size + out.payload_size) + " (truncated or extended)");
  return out;
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

std::uint64_t fnv1a64(const void* data, std::size_t size) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  const auto* p = static_cast<const std::uint8_t*>(data);
  for (std::size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

namespace {

// The header of a level file whose payload (raw, `entries` bytes) hashes to
// `payload_hash`.
std::vector<std::uint8_t> level_header(const Ruleset& rules, int pits_per_side, int seeds, std::uint64_t entries,
                                       std::uint64_t payload_hash) {
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
  w.put(kCodecRaw);
  w.put(entries);
  w.put(entries);
  w.put(payload_hash);
  const std::uint32_t header_size = std::uint32_t(w.bytes.size() + 4);
  for (int i = 0; i < 4; ++i) w.bytes[12 + std::size_t(i)] = std::uint8_t(header_size >> (8 * i));
  w.put(crc32(w.bytes.data(), w.bytes.size()));
  return w.bytes;
}

constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ull;

std::uint64_t fnv1a64_update(std::uint64_t h, const void* data, std::size_t size) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  for (std::size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

}  // namespace

LevelFileWriter::LevelFileWriter(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side, int seeds,
                                 std::uint64_t entries)
    : dir_(dir), file_(level_path(dir, seeds)), tmp_(file_.string() + ".tmp"), rules_(rules), pits_per_side_(pits_per_side),
      seeds_(seeds), entries_(entries), hash_(kFnvOffset) {
  // A fresh file, not the inode of a .tmp that a process being stopped may
  // still hold open.
  ::unlink(tmp_.c_str());
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd_ < 0) refuse(tmp_, std::string("cannot create: ") + std::strerror(errno));
  // The header's size does not depend on the hash: write a placeholder now,
  // the real header at the end.
  header_size_ = level_header(rules_, pits_per_side_, seeds_, entries_, 0).size();
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
      std::filesystem::remove(tmp_);
      refuse(tmp_, "write failed: " + why);
    }
    b += k;
    n -= std::size_t(k);
  }
}

void LevelFileWriter::append(const std::int8_t* values, std::size_t n) {
  if (fd_ < 0) throw std::logic_error("LevelFileWriter: append after finish");
  if (written_ + n > entries_) throw std::logic_error("LevelFileWriter: more values than the level holds");
  hash_ = fnv1a64_update(hash_, values, n);
  write_all(values, n);
  written_ += n;
}

void LevelFileWriter::finish() {
  if (fd_ < 0) throw std::logic_error("LevelFileWriter: finish twice");
  if (written_ != entries_) throw std::logic_error("LevelFileWriter: " + std::to_string(written_) + " values of " + std::to_string(entries_));
  const std::vector<std::uint8_t> header = level_header(rules_, pits_per_side_, seeds_, entries_, hash_);
  if (::lseek(fd_, 0, SEEK_SET) != 0) refuse(tmp_, std::string("seek failed: ") + std::strerror(errno));
  write_all(header.data(), header.size());
  const int fd = fd_;
  fd_ = -1;
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    std::filesystem::remove(tmp_);
    refuse(tmp_, std::string("sync failed: ") + std::strerror(errno));
  }
  std::filesystem::rename(tmp_, file_);
  sync_directory(dir_);
}

void write_level(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side, int seeds,
                 const std::vector<std::int8_t>& values) {
  LevelFileWriter writer(dir, rules, pits_per_side, seeds, values.size());
  writer.append(values.data(), values.size());
  writer.finish();
}

TableHeader read_header(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY);
  if (fd < 0) refuse(file, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  ::fstat(fd, &st);
  std::vector<std::uint8_t> head(std::min<std::size_t>(std::size_t(st.st_size), 4096));
  const ssize_t got = ::pread(fd, head.data(), head.size(), 0);
  ::close(fd);
  if (got != ssize_t(head.size())) refuse(file, "cannot read the header");
  return parse_header(head.data(), std::size_t(st.st_size), file).header;
}

MappedLevel::MappedLevel(const std::filesystem::path& file, const Ruleset& rules, int pits_per_side, int seeds) {
  const int fd = ::open(file.c_str(), O_RDONLY);
  if (fd < 0) refuse(file, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_size == 0) {
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
  try {
    const auto* data = static_cast<const std::uint8_t*>(map_);
    const ParsedHeader parsed = parse_header(data, map_size_, file);
    header_ = parsed.header;
    if (header_.digest != rules.digest())
      refuse(file, "built for ruleset '" + header_.digest + "', not '" + rules.digest() + "'");
    if (header_.pits_per_side != pits_per_side)
      refuse(file, "built for " + std::to_string(header_.pits_per_side) + " pits a side, not " + std::to_string(pits_per_side));
    if (header_.seeds != seeds) refuse(file, "holds level " + std::to_string(header_.seeds) + ", not " + std::to_string(seeds));
    const BoardIndex index(2 * pits_per_side, seeds);
    if (header_.entries != index.level_size(seeds)) refuse(file, "entry count does not match the level size");
    values_ = reinterpret_cast<const std::int8_t*>(data + parsed.header_size);
    if (fnv1a64(values_, header_.entries) != header_.payload_hash) refuse(file, "payload checksum mismatch (corrupt data)");
  } catch (...) {
    ::munmap(map_, map_size_);
    map_ = nullptr;
    throw;
  }
}

MappedLevel::~MappedLevel() {
  if (map_) ::munmap(map_, map_size_);
}

}  // namespace mancala::tables
