// EmulatedFP64 on the GPU: bit for bit the host oracle (every transpose, odd
// sizes, leading dimensions, alpha/beta, Inf/NaN, wide rows, overflow), a
// poisoned C fully written, accuracy against exact dot products beside
// cuBLAS DGEMM's on the same entries, the DGEMM hand-off of small problems
// and, chosen on the device, of calls with too many wide rows (in and out of
// a user's stream capture, through the cache of graphs, from two threads),
// the debug log's line, and bad arguments.
#include <cublas_v2.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "backends/cuda/fp64/handoff_graph.hpp"
#include "device_support.hpp"
#include "egemm/numerics/crt_moduli.hpp"
#include "egemm/numerics/fp64_handoff.hpp"
#include "support/fp64_direct.hpp"
#include "support/fp64_exact.hpp"
#include "support/fp64_matrices.hpp"

namespace egemm {
namespace {

using test::Fill64;
using test::Matrix64;

const bool kernels_at_every_size = [] { return setenv("EGEMM_SMALL_GEMM_FALLBACK", "0", 1) == 0; }();
constexpr double nan64 = std::numeric_limits<double>::quiet_NaN();

using DeviceCase = test::Fp64Case;
using HostOperands = test::Fp64Operands;

std::vector<double> on_device(const DeviceCase& t, const HostOperands& o) {
  test::DeviceBuffer<double> a(o.a.data), b(o.b.data), c(o.c.data);
  gemm(EmulatedFP64{}, t.ta, t.tb, t.m, t.n, t.k, t.alpha, a.get(), o.a.ld, b.get(), o.b.ld, t.beta, c.get(), o.c.ld,
       nullptr);
  test::cuda_ok(cudaDeviceSynchronize(), "EmulatedFP64 on the device");
  return c.download();
}

// Entries whose bits differ (NaN counts as equal to NaN), and the first.
std::pair<std::size_t, std::size_t> differences(const std::vector<double>& x, const std::vector<double>& y) {
  std::size_t differ = 0, first = 0;
  for (std::size_t q = 0; q < x.size(); ++q)
    if (test::bits_of(x[q]) != test::bits_of(y[q]) && !(std::isnan(x[q]) && std::isnan(y[q])))
      if (differ++ == 0) first = q;
  return {differ, first};
}

// The host oracle's C for the case.
std::vector<double> on_host(const DeviceCase& t, HostOperands o) {
  gemm(EmulatedFP64{}, t.ta, t.tb, t.m, t.n, t.k, t.alpha, o.a.ptr(), o.a.ld, o.b.ptr(), o.b.ld, t.beta, o.c.ptr(),
       o.c.ld);
  return o.c.data;
}

void expect_matches_host(const DeviceCase& t, HostOperands o, const std::string& what) {
  const std::vector<double> device = on_device(t, o), host = on_host(t, o);
  const auto [differ, first] = differences(device, host);
  EXPECT_EQ(differ, 0u) << what << " " << t.ta << t.tb << " m=" << t.m << " n=" << t.n << " k=" << t.k
                        << ": first at " << first << ": device " << device[first] << ", host " << host[first];
}

// cuBLAS DGEMM of the case on the device, with the 32 MiB workspace the hand-off gives it.
std::vector<double> cublas_dgemm(const DeviceCase& t, const HostOperands& o) {
  test::DeviceBuffer<double> a(o.a.data), b(o.b.data), c(o.c.data);
  test::DeviceBuffer<unsigned char> workspace(std::size_t(32) << 20);
  cublasHandle_t h;
  EXPECT_EQ(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasSetWorkspace(h, workspace.get(), workspace.size()), CUBLAS_STATUS_SUCCESS);
  const auto op = [](char tr) { return tr == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T; };
  EXPECT_EQ(cublasDgemm(h, op(t.ta), op(t.tb), static_cast<int>(t.m), static_cast<int>(t.n), static_cast<int>(t.k),
                        &t.alpha, a.get(), static_cast<int>(o.a.ld), b.get(), static_cast<int>(o.b.ld), &t.beta,
                        c.get(), static_cast<int>(o.c.ld)),
            CUBLAS_STATUS_SUCCESS);
  test::cuda_ok(cudaDeviceSynchronize(), "cuBLAS DGEMM");
  cublasDestroy(h);
  return c.download();
}

// What the rules (the sample's, then the full counts') say of the case's operands, from the host's flags.
bool rule_hands_off(const DeviceCase& t, HostOperands o) {
  const GemmArgs64 g = make_gemm_args("test", t.ta, t.tb, t.m, t.n, t.k, t.alpha, o.a.ptr(), o.a.ld, o.b.ptr(),
                                      o.b.ld, t.beta, o.c.ptr(), o.c.ld);
  const int moduli = numerics::crt::moduli_for_calls();
  const test::DirectRows A = test::direct_rows(g.a_rows(), moduli), B = test::direct_rows(g.b_cols(), moduli);
  return test::hands_off(g, A, B);
}

// The device's C is cuBLAS DGEMM's, bit for bit (handed off), or the host oracle's (emulated).
void expect_branch(const DeviceCase& t, const HostOperands& o, const std::vector<double>& device, bool handed_off,
                   const std::string& what) {
  ASSERT_EQ(rule_hands_off(t, o), handed_off) << what;
  const std::vector<double> want = handed_off ? cublas_dgemm(t, o) : on_host(t, o);
  const auto [differ, first] = differences(device, want);
  EXPECT_EQ(differ, 0u) << what << (handed_off ? ": against cuBLAS DGEMM" : ": against the host oracle") << " "
                        << t.ta << t.tb << " m=" << t.m << " n=" << t.n << " k=" << t.k << ": first at " << first
                        << ": device " << device[first] << ", want " << want[first];
}

// A wide row: one value near 2^30, the others near 2^-30 (magnitudes in [1, 2) times those):
// rho^2 ~ k > 16 for any k >= 17, whatever the fill drew.
double spread(double v, index_t p) { return std::ldexp(std::copysign(1.0 + std::fabs(v), v), p == 0 ? 30 : -30); }

TEST(CudaEmulatedFP64, MatchesTheHostOracleBitForBit) {
  EGEMM_REQUIRE_GPU();
  ASSERT_TRUE(kernels_at_every_size);
  for (char ta : {'N', 'T'})
    for (char tb : {'N', 'T'})
      for (const DeviceCase& t : {DeviceCase{ta, tb, 1, 1, 1, 1.0, 0.0}, DeviceCase{ta, tb, 33, 17, 70, -1.5, 0.0, 3},
                                  DeviceCase{ta, tb, 130, 257, 301, 0.75, 2.0, 1}})
        expect_matches_host(t, test::fp64_operands(t, test::fresh_seed()), "uniform");
  {  // (wide inputs hand off: WideInputsHandOffToDgemmOnTheDevice)
    DeviceCase t{'N', 'T', 200, 150, 1000, 1.0, 0.0, 0};
    t.fill = Fill64::normal;
    expect_matches_host(t, test::fp64_operands(t, test::fresh_seed()), "normal");
  }
  // The split's three forms: rows held in shared memory by 256 threads (above), by 512
  // (k > 12288), and read from global memory (k > 16384).
  for (const DeviceCase& t : {DeviceCase{'T', 'N', 40, 24, 13001, 1.0, 0.0, 0}, DeviceCase{'N', 'N', 24, 40, 16385, 1.0, 0.5, 1}})
    expect_matches_host(t, test::fp64_operands(t, test::fresh_seed()), "deep rows");
}

// A few flagged rows and columns (below the hand-off's share of C): the call
// stays emulated, their entries the float64 pass's.
TEST(CudaEmulatedFP64, SpecialValuesWideRowsAndOverflowMatchTheHost) {
  EGEMM_REQUIRE_GPU();
  DeviceCase t{'N', 'N', 768, 640, 90, 1.0, 0.5, 0};
  HostOperands o = test::fp64_operands(t, test::fresh_seed());
  o.a(3, 5) = std::numeric_limits<double>::infinity();
  o.a(9, 0) = nan64;
  o.b(7, 11) = -std::numeric_limits<double>::infinity();
  for (index_t p = 0; p < t.k; ++p) o.a(700, p) = spread(o.a(700, p), p);  // a wide row
  for (index_t p = 0; p < t.k; ++p) o.b(p, 530) = spread(o.b(p, 530), p);  // a wide column
  for (index_t p = 0; p < t.k; ++p) {  // products past FP64's range in rows that are not wide
    o.a(40, p) *= 1e290;
    o.b(p, 41) *= 1e290;
  }
  ASSERT_FALSE(rule_hands_off(t, o));  // 3 640 + 2 768 - 6 = 3450 of 491520 entries: below 1/128
  expect_matches_host(t, o, "special values");
  EXPECT_GT(differences(on_device(t, o), cublas_dgemm(t, o)).first, 0u) << "emulated, not DGEMM";
}

// Wide inputs (every row spans 60 binades), with or without Inf/NaN, hand off on
// the device: C is cuBLAS DGEMM's, bit for bit (a NaN-poisoned C fully written
// where beta is 0); uniform inputs of the same shape do not.
TEST(CudaEmulatedFP64, WideInputsHandOffToDgemmOnTheDevice) {
  EGEMM_REQUIRE_GPU();
  for (const auto& [ta, tb, beta] : {std::tuple{'N', 'T', 0.0}, std::tuple{'T', 'N', 0.75}, std::tuple{'N', 'N', -1.0}}) {
    DeviceCase t{ta, tb, 300, 260, 200, -0.5, beta, 1};
    t.fill = Fill64::wide;
    HostOperands o = test::fp64_operands(t, test::fresh_seed());
    if (ta == 'T') {
      o.a(5, 3) = std::numeric_limits<double>::infinity();
      o.b(7, 9) = nan64;
    }
    expect_branch(t, o, on_device(t, o), true, std::string("wide ") + ta + tb);
    t.fill = Fill64::uniform;
    const HostOperands u = test::fp64_operands(t, test::fresh_seed());
    const std::vector<double> device = on_device(t, u);
    expect_branch(t, u, device, false, std::string("uniform ") + ta + tb);
    EXPECT_GT(differences(device, cublas_dgemm(t, u)).first, 0u) << "uniform inputs: emulated, not DGEMM";
  }
}

// Wide rows of op(A) inside the hand-off's sample (2048 rows, stride 4: rows 0-3, 16-19,
// 32-35, ...), as many outside it, and more outside it.
const std::vector<index_t> sampled_rows{0, 1, 2, 3, 16, 17, 18, 19, 32}, unsampled_rows{4, 5, 6, 7, 8, 9, 10, 11, 12},
    more_unsampled_rows{4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 24};

// The case's operands with those rows of op(A) wide and C poisoned with NaN (beta 0 writes it all).
HostOperands with_wide_rows(const DeviceCase& t, const HostOperands& base, const std::vector<index_t>& rows) {
  HostOperands o = base;
  for (index_t i : rows)
    for (index_t p = 0; p < t.k; ++p) {
      double& x = t.ta == 'N' ? o.a(i, p) : o.a(p, i);
      x = spread(x, p);
    }
  std::fill(o.c.data.begin(), o.c.data.end(), nan64);
  return o;
}

// 9 wide rows of 2048 in the sample hand off before the splits (9 of its 512 rows: past
// 2/128), though the full count alone (9 of 2048) would keep the moduli: C is cuBLAS
// DGEMM's, bit for bit. The same rows outside the sample keep the moduli; 17 outside it
// hand off on the full count. Rows strided ('N') and contiguous ('T'), and on replays of
// one captured call.
TEST(CudaEmulatedFP64, TheSampleHandsOffBeforeTheSplits) {
  EGEMM_REQUIRE_GPU();
  const std::pair<const std::vector<index_t>*, bool> variants[] = {
      {&sampled_rows, true}, {&unsampled_rows, false}, {&more_unsampled_rows, true}};
  for (const char ta : {'N', 'T'}) {
    const DeviceCase t{ta, 'N', 2048, 96, 48, 1.5, 0.0, 0};
    const HostOperands base = test::fp64_operands(t, test::fresh_seed());
    for (const auto& [rows, handed] : variants) {
      const HostOperands o = with_wide_rows(t, base, *rows);
      expect_branch(t, o, on_device(t, o), handed, std::string("op(A) ") + ta + ", " + std::to_string(rows->size()) +
                                                      (rows == &sampled_rows ? " rows in the sample" : " rows outside it"));
    }
  }
  const DeviceCase t{'N', 'N', 2048, 96, 48, 1.5, 0.0, 0};
  const HostOperands base = test::fp64_operands(t, test::fresh_seed());
  test::DeviceBuffer<double> a(base.a.data), b(base.b.data), c(base.c.data);
  test::OwnedStream stream;
  cudaGraph_t graph = nullptr;
  try {
    graph = test::captured(stream.get(), cudaStreamCaptureModeThreadLocal, [&] {
      gemm(EmulatedFP64{}, t.ta, t.tb, t.m, t.n, t.k, t.alpha, a.get(), base.a.ld, b.get(), base.b.ld, t.beta, c.get(),
           base.c.ld, stream.get());
    });
  } catch (const std::exception& e) {
    FAIL() << "EmulatedFP64 could not be captured: " << e.what();
  }
  cudaGraphExec_t exec = nullptr;
  test::cuda_ok(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  for (const auto& [rows, handed] : variants) {
    const HostOperands o = with_wide_rows(t, base, *rows);
    a.upload(o.a.data);
    c.upload(o.c.data);
    test::cuda_ok(cudaGraphLaunch(exec, stream.get()), "cudaGraphLaunch");
    test::cuda_ok(cudaStreamSynchronize(stream.get()), "replay");
    expect_branch(t, o, c.download(), handed, "replay, " + std::to_string(rows->size()) + " wide rows");
  }
  test::cuda_ok(cudaGraphExecDestroy(exec), "cudaGraphExecDestroy");
  test::cuda_ok(cudaGraphDestroy(graph), "cudaGraphDestroy");
}

// A call captured into a user's CUDA graph (thread-local and global capture
// modes, on a thread whose first call it is) chooses at each replay from the
// operands it then reads: wide ones hand off, uniform ones keep the moduli.
TEST(CudaEmulatedFP64, ACapturedCallChoosesOnEachReplay) {
  EGEMM_REQUIRE_GPU();
  for (const cudaStreamCaptureMode mode : {cudaStreamCaptureModeThreadLocal, cudaStreamCaptureModeGlobal}) {
    std::thread([mode] {
      try {
        DeviceCase t{'T', 'N', 260, 300, 150, 1.5, 0.25, 2};
        const HostOperands shape = test::fp64_operands(t, 1);
        test::DeviceBuffer<double> a(shape.a.data.size()), b(shape.b.data.size()), c(shape.c.data.size());
        test::OwnedStream stream;
        cudaGraph_t graph = nullptr;
        try {
          graph = test::captured(stream.get(), mode, [&] {
            gemm(EmulatedFP64{}, t.ta, t.tb, t.m, t.n, t.k, t.alpha, a.get(), shape.a.ld, b.get(), shape.b.ld, t.beta,
                 c.get(), shape.c.ld, stream.get());
          });
        } catch (const std::exception& e) {
          ADD_FAILURE() << "EmulatedFP64 could not be captured (mode " << mode << "): " << e.what();
          return;
        }
        cudaGraphExec_t exec = nullptr;
        test::cuda_ok(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
        for (const Fill64 fill : {Fill64::wide, Fill64::uniform, Fill64::wide, Fill64::uniform}) {
          t.fill = fill;
          const HostOperands o = test::fp64_operands(t, test::fresh_seed());
          a.upload(o.a.data);
          b.upload(o.b.data);
          c.upload(o.c.data);
          test::cuda_ok(cudaGraphLaunch(exec, stream.get()), "cudaGraphLaunch");
          test::cuda_ok(cudaStreamSynchronize(stream.get()), "replay");
          expect_branch(t, o, c.download(), fill == Fill64::wide,
                        std::string("replay on ") + test::fill_name(fill) + " inputs, capture mode " +
                            std::to_string(mode));
        }
        test::cuda_ok(cudaGraphExecDestroy(exec), "cudaGraphExecDestroy");
        test::cuda_ok(cudaGraphDestroy(graph), "cudaGraphDestroy");
      } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
      }
    }).join();
  }
}

// Outside a capture the choice runs as a cached executable graph: the same call
// again launches it as it is; other pointers, alpha or beta update a cached one
// or instantiate another; more keys than the cache holds still compute right.
TEST(CudaEmulatedFP64, RepeatedCallsReuseTheirGraphs) {
  EGEMM_REQUIRE_GPU();
  DeviceCase t{'N', 'N', 200, 180, 120, 1.0, 0.5, 0};
  const HostOperands o = test::fp64_operands(t, test::fresh_seed());
  test::DeviceBuffer<double> a(o.a.data), b(o.b.data), c(o.c.data), c2(o.c.data);
  const auto call = [&](const DeviceCase& u, double* cp) {
    gemm(EmulatedFP64{}, u.ta, u.tb, u.m, u.n, u.k, u.alpha, a.get(), o.a.ld, b.get(), o.b.ld, u.beta, cp, o.c.ld,
         nullptr);
    test::cuda_ok(cudaDeviceSynchronize(), "EmulatedFP64");
  };
  const auto check = [&](const DeviceCase& u, const test::DeviceBuffer<double>& cb, const std::string& what) {
    const auto [differ, first] = differences(cb.download(), on_host(u, o));
    EXPECT_EQ(differ, 0u) << what << ": first at " << first;
  };
  call(t, c.get());
  check(t, c, "first call");
  const unsigned long long builds = cuda::choice_graph_builds();
  c.upload(o.c.data);
  call(t, c.get());
  check(t, c, "the same call again");
  EXPECT_EQ(cuda::choice_graph_builds(), builds) << "the same call built its graph again";
  call(t, c2.get());  // another C
  check(t, c2, "another C");
  for (int q = 0; q < 12; ++q) {  // more keys than the cache holds
    DeviceCase u = t;
    u.alpha = 0.5 + q;
    u.beta = q % 3 == 0 ? 0.0 : -0.25 * q;
    c.upload(o.c.data);
    call(u, c.get());
    check(u, c, "alpha " + std::to_string(u.alpha) + ", beta " + std::to_string(u.beta));
  }
  EXPECT_LE(cuda::cached_choice_graphs(), 8);
  EXPECT_GT(cuda::choice_graph_builds(), builds);
}

// Two threads at once, each on its own stream, wide and uniform inputs of shapes of their own.
TEST(CudaEmulatedFP64, TwoThreadsChooseOnTheirOwn) {
  EGEMM_REQUIRE_GPU();
  std::vector<std::thread> threads;
  for (int w = 0; w < 2; ++w)
    threads.emplace_back([w] {
      try {
        test::OwnedStream stream;
        for (int round = 0; round < 3; ++round)
          for (const Fill64 fill : {Fill64::wide, Fill64::uniform}) {
            DeviceCase t{w ? 'T' : 'N', 'N', 220 + 40 * w, 170 + 30 * w, 130, 1.0, 0.5, 0};
            t.fill = fill;
            const HostOperands o = test::fp64_operands(t, test::fresh_seed());
            test::DeviceBuffer<double> a(o.a.data), b(o.b.data), c(o.c.data);
            gemm(EmulatedFP64{}, t.ta, t.tb, t.m, t.n, t.k, t.alpha, a.get(), o.a.ld, b.get(), o.b.ld, t.beta, c.get(),
                 o.c.ld, stream.get());
            test::cuda_ok(cudaStreamSynchronize(stream.get()), "EmulatedFP64");
            expect_branch(t, o, c.download(), fill == Fill64::wide,
                          "thread " + std::to_string(w) + " " + test::fill_name(fill));
          }
      } catch (const std::exception& e) {
        ADD_FAILURE() << "thread " << w << ": " << e.what();
      }
    });
  for (std::thread& th : threads) th.join();
}

// A hand-off's bodies are captured (on a stream of the library's) while another
// thread of the process keeps making synchronising calls (cudaMalloc, cudaFree):
// where one invalidates the capture, the capture is begun again, and every call
// gives DGEMM's result. Each call has a key of its own (alpha), so each captures.
TEST(CudaEmulatedFP64, HandOffCapturesOutlastOtherThreadsSynchronisingCalls) {
  EGEMM_REQUIRE_GPU();
  std::atomic<bool> done{false};
  std::thread churn([&] {
    while (!done.load()) {
      void* p = nullptr;
      if (cudaMalloc(&p, std::size_t(1) << 20) == cudaSuccess) (void)cudaFree(p);
    }
  });
  try {
    DeviceCase t{'N', 'T', 300, 200, 150, 1.0, 0.5, 0};
    t.fill = Fill64::wide;
    const HostOperands o = test::fp64_operands(t, test::fresh_seed());
    test::OwnedStream stream;
    test::DeviceBuffer<double> a(o.a.data), b(o.b.data), c(o.c.data);
    for (int q = 0; q < 40; ++q) {
      DeviceCase u = t;
      u.alpha = 1.0 + q;
      c.upload(o.c.data);
      gemm(EmulatedFP64{}, u.ta, u.tb, u.m, u.n, u.k, u.alpha, a.get(), o.a.ld, b.get(), o.b.ld, u.beta, c.get(),
           o.c.ld, stream.get());
      test::cuda_ok(cudaStreamSynchronize(stream.get()), "EmulatedFP64");
      expect_branch(u, o, c.download(), true, "call " + std::to_string(q));
    }
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what();
  }
  done = true;
  churn.join();
}

// Error over >= 10^4 sampled entries against exact dot products, beside
// cuBLAS DGEMM's on the same entries.
TEST(CudaEmulatedFP64, AtLeastAsAccurateAsCublasDgemm) {
  EGEMM_REQUIRE_GPU();
  const index_t m = 1024, n = 1024, k = 4096;
  cublasHandle_t h;
  ASSERT_EQ(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
  for (Fill64 fill : {Fill64::uniform, Fill64::normal, Fill64::wide}) {
    const Matrix64 a = test::random_matrix64(m, k, test::fresh_seed(), fill),
                   b = test::random_matrix64(k, n, test::fresh_seed(), fill);
    test::DeviceBuffer<double> da(a.data), db(b.data), dc(static_cast<std::size_t>(m * n)),
        dd(static_cast<std::size_t>(m * n));
    const double one = 1.0, zero = 0.0;
    gemm(EmulatedFP64{}, 'N', 'N', m, n, k, 1.0, da.get(), m, db.get(), k, 0.0, dc.get(), m, nullptr);
    ASSERT_EQ(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, da.get(), m, db.get(), k, &zero, dd.get(), m),
              CUBLAS_STATUS_SUCCESS);
    test::cuda_ok(cudaDeviceSynchronize(), "gemms");
    const std::vector<double> ours = dc.download(), dgemm = dd.download();
    std::vector<double> o, d, exact;
    for (const test::Entry e : test::sample_entries(m, n, 12000, test::fresh_seed())) {
      exact.push_back(test::exact_dot(a.ptr() + e.i, m, b.ptr() + e.j * k, 1, k));
      o.push_back(ours[e.i + e.j * m]);
      d.push_back(dgemm[e.i + e.j * m]);
    }
    const test::SampleError eo = test::sample_error(o, exact), ed = test::sample_error(d, exact);
    std::printf("[ info ] %s 1024x1024x4096, %zu entries: EmulatedFP64 rel. Frobenius %.3e (max %.3e), cuBLAS DGEMM %.3e (max %.3e)\n",
                test::fill_name(fill), eo.entries, eo.rel_frobenius, eo.max_rel_to_max, ed.rel_frobenius, ed.max_rel_to_max);
    EXPECT_LE(eo.rel_frobenius, ed.rel_frobenius) << test::fill_name(fill);
    EXPECT_LE(eo.max_rel_to_max, ed.max_rel_to_max) << test::fill_name(fill);
  }
  cublasDestroy(h);
}

// With the hand-off on, a small problem is cuBLAS DGEMM, bit for bit; a large one is not.
TEST(CudaEmulatedFP64, SmallProblemsRunDgemm) {
  EGEMM_REQUIRE_GPU();
  const cuda::ScopedTuning on([](cuda::Tuning& t) { t.small_gemm_fallback = true; });
  const auto both = [](index_t s) {
    const Matrix64 a = test::random_matrix64(s, s, test::fresh_seed()), b = test::random_matrix64(s, s, test::fresh_seed());
    test::DeviceBuffer<double> da(a.data), db(b.data), dc(static_cast<std::size_t>(s * s)), dd(dc.size());
    gemm(EmulatedFP64{}, 'N', 'N', s, s, s, 1.0, da.get(), s, db.get(), s, 0.0, dc.get(), s, nullptr);
    cublasHandle_t h;
    cublasCreate(&h);
    const double one = 1.0, zero = 0.0;
    cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, s, s, s, &one, da.get(), s, db.get(), s, &zero, dd.get(), s);
    test::cuda_ok(cudaDeviceSynchronize(), "gemms");
    cublasDestroy(h);
    return std::make_pair(dc.download(), dd.download());
  };
  const auto [small_ours, small_dgemm] = both(256);
  EXPECT_EQ(small_ours, small_dgemm);
  EXPECT_FALSE(emulated_fp64_uses_tensor_cores(256, 256, 256));
  EXPECT_TRUE(emulated_fp64_uses_tensor_cores(4096, 4096, 4096));
  EXPECT_FALSE(emulated_fp64_uses_tensor_cores(2048, 8192, 8192));
  const auto [big_ours, big_dgemm] = both(4096);
  EXPECT_NE(big_ours, big_dgemm);
}

TEST(CudaEmulatedFP64, DebugLogSaysWhatRan) {
  EGEMM_REQUIRE_GPU();
  const test::ScopedDebugLog log;
  const auto log_of = [](index_t size) {
    DeviceCase t{'N', 'N', size, size, 64, 1.0, 0.0, 0};
    HostOperands o = test::fp64_operands(t, test::fresh_seed());
    for (index_t p = 0; p < t.k; ++p) o.a(5, p) = spread(o.a(5, p), p);
    ::testing::internal::CaptureStderr();
    (void)on_device(t, o);
    return ::testing::internal::GetCapturedStderr();
  };
  const std::string kept = log_of(256);  // one row of 256: 1/256 of C
  EXPECT_NE(kept.find("cuda EmulatedFP64 NN m=256 n=256 k=64 -> 15 moduli, float64 for 1 wide rows of op(A)"),
            std::string::npos)
      << kept;
  const std::string handed = log_of(64);  // one row of 64: 1/64 of C
  EXPECT_NE(handed.find("cuda EmulatedFP64 NN m=64 n=64 k=64 -> native_fp64 (1 wide rows of op(A), 0 wide columns "
                        "of op(B), 0 with Inf/NaN: handed off on the device)"),
            std::string::npos)
      << handed;
  {  // one wide column of op(B) of 64 hands off alone: op(A) is not read
    DeviceCase t{'N', 'N', 64, 64, 64, 1.0, 0.0, 0};
    HostOperands o = test::fp64_operands(t, test::fresh_seed());
    for (index_t p = 0; p < t.k; ++p) o.b(p, 9) = spread(o.b(p, 9), p);
    ::testing::internal::CaptureStderr();
    const std::vector<double> device = on_device(t, o);
    const std::string text = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(text.find("cuda EmulatedFP64 NN m=64 n=64 k=64 -> native_fp64 (1 wide columns of op(B), 0 with "
                        "Inf/NaN: handed off on the device, op(A) not read)"),
              std::string::npos)
        << text;
    expect_branch(t, o, device, true, "one wide column of op(B)");
  }
  // The sample decides before the splits (they read nothing, their counts stay 0), or the full count does.
  const DeviceCase t{'N', 'N', 2048, 96, 48, 1.0, 0.0, 0};
  const HostOperands base = test::fp64_operands(t, test::fresh_seed());
  const auto log_with = [&](const std::vector<index_t>& rows) {
    const HostOperands o = with_wide_rows(t, base, rows);
    ::testing::internal::CaptureStderr();
    (void)on_device(t, o);
    return ::testing::internal::GetCapturedStderr();
  };
  const std::string sampled = log_with(sampled_rows);
  EXPECT_NE(sampled.find("cuda EmulatedFP64 NN m=2048 n=96 k=48 -> native_fp64 (9 of 512 sampled rows of op(A), 0 of "
                         "96 sampled columns of op(B) flagged: handed off on the device before the splits)"),
            std::string::npos)
      << sampled;
  const std::string counted = log_with(more_unsampled_rows);
  EXPECT_NE(counted.find("cuda EmulatedFP64 NN m=2048 n=96 k=48 -> native_fp64 (17 wide rows of op(A), 0 wide "
                         "columns of op(B), 0 with Inf/NaN: handed off on the device)"),
            std::string::npos)
      << counted;
}

TEST(CudaEmulatedFP64, BadArgumentsThrowAndLeaveCUntouched) {
  EGEMM_REQUIRE_GPU();
  const Matrix64 a = test::random_matrix64(8, 8, 1), b = test::random_matrix64(8, 8, 2);
  Matrix64 host_c = test::random_matrix64(8, 8, 3);
  test::DeviceBuffer<double> da(a.data), db(b.data), dc(host_c.data);
  EXPECT_THROW(gemm(EmulatedFP64{}, 'N', 'N', 8, 8, 8, 1.0, da.get(), 7, db.get(), 8, 0.0, dc.get(), 8, nullptr),
               invalid_argument);
  EXPECT_THROW(gemm(EmulatedFP64{}, 'N', 'N', 8, 8, 8, 1.0, a.ptr(), 8, db.get(), 8, 0.0, dc.get(), 8, nullptr),
               invalid_argument);  // host A with a stream
  EXPECT_EQ(dc.download(), host_c.data);
}

}  // namespace
}  // namespace egemm
