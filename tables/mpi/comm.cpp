#include "comm.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <stdexcept>

namespace mancala::mpi {

namespace {
constexpr std::uint64_t kPiece = std::uint64_t(1) << 30;  // bytes per MPI call

// Adds the wall time of its scope to a counter.
class Timed {
 public:
  explicit Timed(double& total) : total_(total), t0_(std::chrono::steady_clock::now()) {}
  ~Timed() { total_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count(); }

 private:
  double& total_;
  std::chrono::steady_clock::time_point t0_;
};

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI error in ") + what);
}
}  // namespace

Session::Session(int* argc, char*** argv) {
  int provided = 0;
  check(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
}

Session::~Session() { MPI_Finalize(); }

Comm::Comm() {
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

int Comm::node_size() const {
  MPI_Comm node;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  int n = 1;
  MPI_Comm_size(node, &n);
  MPI_Comm_free(&node);
  return n;
}

void Comm::barrier() { Timed timed(seconds_); check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier"); }

void Comm::abort(int status) {
  MPI_Abort(MPI_COMM_WORLD, status);
  std::abort();
}

void Comm::broadcast(std::vector<std::int8_t>& bytes, int root) {
  Timed timed(seconds_);
  std::uint64_t n = bytes.size();
  check(MPI_Bcast(&n, 1, MPI_UINT64_T, root, MPI_COMM_WORLD), "MPI_Bcast");
  if (rank_ != root) bytes.resize(n);
  for (std::uint64_t at = 0; at < n; at += kPiece)
    check(MPI_Bcast(bytes.data() + at, int(std::min(kPiece, n - at)), MPI_INT8_T, root, MPI_COMM_WORLD), "MPI_Bcast");
  if (rank_ == root) bytes_sent_ += n * std::uint64_t(size_ - 1);
}

void Comm::broadcast(std::string& text, int root) {
  std::vector<std::int8_t> bytes(text.begin(), text.end());
  broadcast(bytes, root);
  text.assign(bytes.begin(), bytes.end());
}

template <class T>
std::vector<T> Comm::all_to_all_of(const std::vector<std::span<const T>>& out, std::vector<std::uint64_t>* from) {
  Timed timed(seconds_);
  if (out.size() != std::size_t(size_)) throw std::logic_error("all_to_all: one span per rank");
  std::vector<std::uint64_t> send_sizes(static_cast<std::size_t>(size_)), recv_sizes(static_cast<std::size_t>(size_));
  for (int r = 0; r < size_; ++r) send_sizes[std::size_t(r)] = out[std::size_t(r)].size();
  check(MPI_Alltoall(send_sizes.data(), 1, MPI_UINT64_T, recv_sizes.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD), "MPI_Alltoall");
  std::vector<std::uint64_t> recv_starts(static_cast<std::size_t>(size_) + 1, 0);
  for (int r = 0; r < size_; ++r) recv_starts[std::size_t(r) + 1] = recv_starts[std::size_t(r)] + recv_sizes[std::size_t(r)];
  std::vector<T> in(recv_starts.back());
  std::uint64_t longest = 0;
  for (int r = 0; r < size_; ++r) longest = std::max({longest, send_sizes[std::size_t(r)], recv_sizes[std::size_t(r)]});
  {  // every rank takes part in the same number of rounds
    std::uint64_t global = 0;
    check(MPI_Allreduce(&longest, &global, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
    longest = global;
  }
  // In rounds of at most kPiece / P bytes per pair.
  const std::uint64_t piece = std::max<std::uint64_t>(1, kPiece / sizeof(T) / std::uint64_t(size_));
  std::vector<int> sc(static_cast<std::size_t>(size_)), sd(static_cast<std::size_t>(size_)), rc(static_cast<std::size_t>(size_)), rd(static_cast<std::size_t>(size_));
  std::vector<T> sbuf, rbuf;
  for (std::uint64_t at = 0; at < longest; at += piece) {
    int st = 0, rt = 0;
    for (int r = 0; r < size_; ++r) {
      const std::uint64_t s = send_sizes[std::size_t(r)], v = recv_sizes[std::size_t(r)];
      sc[std::size_t(r)] = int(at < s ? std::min(piece, s - at) : 0);
      sd[std::size_t(r)] = st;
      st += sc[std::size_t(r)];
      rc[std::size_t(r)] = int(at < v ? std::min(piece, v - at) : 0);
      rd[std::size_t(r)] = rt;
      rt += rc[std::size_t(r)];
    }
    sbuf.resize(std::size_t(st));
    rbuf.resize(std::size_t(rt));
    for (int r = 0; r < size_; ++r) std::copy_n(out[std::size_t(r)].data() + at, sc[std::size_t(r)], sbuf.data() + sd[std::size_t(r)]);
    const MPI_Datatype type = sizeof(T) == 8 ? MPI_UINT64_T : MPI_INT8_T;
    check(MPI_Alltoallv(sbuf.data(), sc.data(), sd.data(), type, rbuf.data(), rc.data(), rd.data(), type,
                        MPI_COMM_WORLD),
          "MPI_Alltoallv");
    for (int r = 0; r < size_; ++r)
      std::copy_n(rbuf.data() + rd[std::size_t(r)], rc[std::size_t(r)], in.data() + recv_starts[std::size_t(r)] + at);
  }
  for (int r = 0; r < size_; ++r)
    if (r != rank_) bytes_sent_ += sizeof(T) * send_sizes[std::size_t(r)];
  if (from) *from = recv_sizes;
  return in;
}

std::vector<std::uint64_t> Comm::all_to_all(const std::vector<std::span<const std::uint64_t>>& out, std::vector<std::uint64_t>* from) {
  return all_to_all_of<std::uint64_t>(out, from);
}

std::vector<std::int8_t> Comm::all_to_all(const std::vector<std::span<const std::int8_t>>& out, std::vector<std::uint64_t>* from) {
  return all_to_all_of<std::int8_t>(out, from);
}

void Comm::send(std::span<const std::int8_t> bytes, int to) {
  Timed timed(seconds_);
  for (std::uint64_t at = 0; at < bytes.size(); at += kPiece)
    check(MPI_Send(bytes.data() + at, int(std::min<std::uint64_t>(kPiece, bytes.size() - at)), MPI_INT8_T, to, 0, MPI_COMM_WORLD),
          "MPI_Send");
  if (to != rank_) bytes_sent_ += bytes.size();
}

void Comm::receive(std::span<std::int8_t> bytes, int from) {
  Timed timed(seconds_);
  for (std::uint64_t at = 0; at < bytes.size(); at += kPiece)
    check(MPI_Recv(bytes.data() + at, int(std::min<std::uint64_t>(kPiece, bytes.size() - at)), MPI_INT8_T, from, 0, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE),
          "MPI_Recv");
}

std::vector<std::uint64_t> Comm::all_gather(std::uint64_t x) {
  Timed timed(seconds_);
  std::vector<std::uint64_t> all(std::size_t(size_), 0);
  check(MPI_Allgather(&x, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD), "MPI_Allgather");
  bytes_sent_ += sizeof x * std::uint64_t(size_ - 1);
  return all;
}

std::uint64_t Comm::sum(std::uint64_t x) {
  Timed timed(seconds_);
  std::uint64_t y = 0;
  check(MPI_Allreduce(&x, &y, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  return y;
}

std::uint64_t Comm::max(std::uint64_t x) {
  Timed timed(seconds_);
  std::uint64_t y = 0;
  check(MPI_Allreduce(&x, &y, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  return y;
}

double Comm::max(double x) {
  Timed timed(seconds_);
  double y = 0;
  check(MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  return y;
}

}  // namespace mancala::mpi
