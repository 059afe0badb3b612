// A large work array of anonymous pages whose parts can be given back to
// the kernel before the whole is freed.
//
// A builder turns its working state (the cells of a level being built) into
// the level's values a chunk at a time; releasing each chunk of cells as its
// values are written keeps the build's peak at the cells alone, instead of
// the cells plus the values.  std::vector cannot free part of its buffer.
//
// The pages start zeroed (the kernel's), are asked for as transparent huge
// pages where the kernel leaves that to the program (a build's cells are
// touched at random, and 2 MiB pages save most of the TLB misses), and are
// never swapped out by choice of ours.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace mancala::tables {

template <class T>
class PageBuffer {
 public:
  PageBuffer() = default;
  explicit PageBuffer(std::size_t n) : size_(n) {
    if (n == 0) return;
    bytes_ = n * sizeof(T);
    void* p = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    ::madvise(p, bytes_, MADV_HUGEPAGE);  // advice only: refused where THP is off
    data_ = static_cast<T*>(p);
  }
  PageBuffer(const PageBuffer&) = delete;
  PageBuffer& operator=(const PageBuffer&) = delete;
  PageBuffer(PageBuffer&& o) noexcept : data_(o.data_), size_(o.size_), bytes_(o.bytes_) { o.data_ = nullptr, o.size_ = o.bytes_ = 0; }
  PageBuffer& operator=(PageBuffer&& o) noexcept {
    if (this != &o) {
      free();
      data_ = o.data_, size_ = o.size_, bytes_ = o.bytes_;
      o.data_ = nullptr, o.size_ = o.bytes_ = 0;
    }
    return *this;
  }
  ~PageBuffer() { free(); }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

  // Gives back the whole pages inside elements [first, last): they read as
  // zero afterwards, and no longer count as the process's memory.
  void release(std::size_t first, std::size_t last) {
    if (!data_ || first >= last) return;
    const std::uintptr_t page = kPage;
    const std::uintptr_t lo = (reinterpret_cast<std::uintptr_t>(data_ + first) + page - 1) & ~(page - 1);
    const std::uintptr_t hi = reinterpret_cast<std::uintptr_t>(data_ + last) & ~(page - 1);
    if (hi > lo) ::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_DONTNEED);
  }

 private:
  static constexpr std::size_t kPage = 4096;  // madvise works on the base pages, huge ones split
  void free() {
    if (data_) ::munmap(data_, bytes_);
    data_ = nullptr;
  }
  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t bytes_ = 0;
};

// n copies of v in a std::vector whose whole 2 MiB pages are asked for as
// transparent huge pages before they are first touched, for a vector that
// is read and written at random.  A large reservation is malloc's own
// mapping, untouched until the copies are written; where malloc serves it
// from pages already touched, those stay as they are (advice only).
template <class T>
std::vector<T> vector_on_huge_pages(std::size_t n, const T& v) {
  std::vector<T> values;
  values.reserve(n);
  constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
  const std::uintptr_t begin = reinterpret_cast<std::uintptr_t>(values.data());
  const std::uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1);
  const std::uintptr_t end = (begin + n * sizeof(T)) & ~(kHuge - 1);
  if (end > first) ::madvise(reinterpret_cast<void*>(first), end - first, MADV_HUGEPAGE);
  values.resize(n, v);
  return values;
}

}  // namespace mancala::tables
