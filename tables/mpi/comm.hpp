// The only interface to MPI in the toolkit: a session (MPI_Init/Finalize)
// and the few collectives the distributed build needs, on byte and 64-bit
// buffers of any size (split into pieces of at most 1 GiB, as MPI counts are
// int).  mpi.h is included by comm.cpp alone.
//
// Every call counts the payload bytes this process hands to other processes
// (the logical volume: a broadcast of n bytes from the root to P-1 others
// counts n(P-1) at the root; an all-gather counts a process's own piece
// once per other process), so runs report their communication volume
// independently of how the MPI library routes it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace mancala::mpi {

class Session {
 public:
  Session(int* argc, char*** argv);  // MPI_Init_thread (funneled: TBB threads never call MPI)
  ~Session();                        // MPI_Finalize
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};

class Comm {
 public:
  Comm();  // MPI_COMM_WORLD
  int rank() const { return rank_; }
  int size() const { return size_; }
  bool root() const { return rank_ == 0; }
  // Processes of this job on this machine (sharing its memory).
  int node_size() const;

  void barrier();
  [[noreturn]] void abort(int status);

  // Root's buffer to everyone; other ranks' buffers are resized first.
  void broadcast(std::vector<std::int8_t>& bytes, int root = 0);
  void broadcast(std::string& text, int root = 0);
  // Personalised exchange: out[r] goes to rank r; returns what every rank
  // sent here, concatenated in rank order.
  // If `from` is given, from[r] is set to the number of items from rank r.
  std::vector<std::uint64_t> all_to_all(const std::vector<std::span<const std::uint64_t>>& out,
                                        std::vector<std::uint64_t>* from = nullptr);
  std::vector<std::int8_t> all_to_all(const std::vector<std::span<const std::int8_t>>& out,
                                      std::vector<std::uint64_t>* from = nullptr);

  // Point to point (both sides know the size): `bytes` to rank `to`, or
  // exactly bytes.size() bytes from rank `from` into `bytes`.
  void send(std::span<const std::int8_t> bytes, int to);
  void receive(std::span<std::int8_t> bytes, int from);

  // Every rank's x, in rank order, on every rank.
  std::vector<std::uint64_t> all_gather(std::uint64_t x);
  std::uint64_t sum(std::uint64_t x);
  std::uint64_t max(std::uint64_t x);
  double max(double x);

  std::uint64_t bytes_sent() const { return bytes_sent_; }
  // Wall time spent inside the collectives above (waiting included).
  double seconds_in_comm() const { return seconds_; }

 private:
  template <class T>
  std::vector<T> all_to_all_of(const std::vector<std::span<const T>>& out, std::vector<std::uint64_t>* from);
  int rank_ = 0;
  int size_ = 1;
  std::uint64_t bytes_sent_ = 0;
  double seconds_ = 0;
};

}  // namespace mancala::mpi
