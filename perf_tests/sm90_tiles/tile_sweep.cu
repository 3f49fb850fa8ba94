// The Hopper kernel's tile sweep: every candidate configuration of
// backends/cuda/sm90/tile_candidates.hpp on each shape, timed (kernel alone,
// on operands split once) and checked against the float64 reference, next to
// the analytic model's prediction (src/egemm/model/hopper_tiles.hpp) with the
// library's built-in rates and with the rates measured in this run. Reports,
// per shape, the model's pick (what the library runs) against the sweep's best,
// timed two ways: one call on a rested GPU (the median of calls each after
// --rest seconds idle, default 0.25: the clock back at its boost) and
// sustained (~0.3 s of calls queued back to back after ~0.2 s of them: the
// power cap holding, as in a long computation); each the mean of two passes
// over the tiles in opposite orders.
//
//   egemm_sm90_tile_sweep [--shapes 4096x4096x4096,8192x8192x8192] [--rest SECONDS] [--csv FILE]
//
// Progress goes to stderr, the Markdown tables to stdout; the CSV (one row per
// shape and tile) feeds plot_tile_sweep.py.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "backends/cuda/kernel_dispatch.hpp"
#include "backends/cuda/runtime/tuning.hpp"
#include "backends/cuda/sm90/hopper_resources.hpp"
#include "backends/cuda/sm90/tile_candidates.hpp"
#include "device_rates.cuh"
#include "egemm/gemm.hpp"
#include "gemm_suite/device_problem.hpp"
#include "support/presplit.hpp"
#include "support/shape_list.hpp"

namespace {

using egemm::index_t;
using egemm::bench::Shape;
using egemm::cuda::hopper::emulated_fp32_shape;
using egemm::cuda::hopper::emulated_fp32_tile_count;
using egemm::cuda::hopper::emulated_fp32_tiles;
namespace model = egemm::model;

struct Options {
  std::vector<Shape> shapes{{4096, 4096, 4096}, {8192, 8192, 8192}, {16384, 4096, 4096}, {4096, 4096, 8192}};
  std::string csv;
  double rest = 0.25;  // seconds idle before each rested call
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--shapes" && i + 1 < argc) {
      o.shapes = egemm::perf::parse_shapes<Shape>(argv[++i]);
    } else if (arg == "--csv" && i + 1 < argc) {
      o.csv = argv[++i];
    } else if (arg == "--rest" && i + 1 < argc) {
      o.rest = std::atof(argv[++i]);
      if (!(o.rest >= 0 && o.rest <= 10)) throw std::runtime_error("--rest wants seconds in [0, 10]");
    } else {
      throw std::runtime_error("usage: egemm_sm90_tile_sweep [--shapes MxNxK,...] [--rest SECONDS] [--csv FILE]");
    }
  }
  return o;
}

struct Result {
  Shape shape;
  int tile;
  bool fits;
  model::HopperPrediction builtin, measured_rates;
  double rested_seconds = 0;     // kernel alone, one call on a rested GPU (median)
  double sustained_seconds = 0;  // kernel alone, per call of a sustained stream of calls
  double rel_error = 0;
};


std::vector<Result> sweep_shape(Shape shape, const model::HopperResources& builtin,
                                const model::HopperResources& measured, double rest, cudaStream_t stream) {
  egemm::bench::DeviceProblem problem(shape, egemm::bench::Distribution::uniform, 7);
  egemm::perf::PresplitOperands split;
  split.split(problem.a(0), problem.b(0), shape.m, shape.n, shape.k, stream);
  const egemm::GemmArgs g = egemm::make_gemm_args("tile sweep", 'N', 'N', shape.m, shape.n, shape.k, 1.0f, problem.a(0),
                                                  shape.m, problem.b(0), shape.k, 0.0f, problem.c(), shape.m);
  const double flops = 2.0 * shape.m * static_cast<double>(shape.n) * shape.k;
  // EmulatedFP32 on the tile the tuning's sm90_tile names (set around each tile's runs).
  auto run = [&] {
    egemm::cuda::launch_fused_gemm(egemm::PolicyId::emulated_fp32, split.a, split.b, g, split.path_word,
                                   egemm::EmulationPath::fp16_scaled, stream);
  };
  std::vector<Result> results;
  for (int i = 0; i < emulated_fp32_tile_count; ++i) {
    const model::HopperTile& t = emulated_fp32_tiles[i];
    Result r{shape, i, model::fits(builtin, t, emulated_fp32_shape)};
    // As the library launches it: the stream-K tail where the model finds it faster.
    r.builtin = model::predict(builtin, t, emulated_fp32_shape, shape.m, shape.n, shape.k, model::Tail::split_when_faster);
    r.measured_rates =
        model::predict(measured, t, emulated_fp32_shape, shape.m, shape.n, shape.k, model::Tail::split_when_faster);
    if (r.fits) {
      const egemm::cuda::ScopedTuning forced([&](egemm::cuda::Tuning& tuning) { tuning.sm90_tile = t.name; });
      problem.poison_c(stream);
      run();
      egemm::perf::check(cudaStreamSynchronize(stream), "tile run");
      const egemm::bench::Errors e = problem.errors_of_c();
      r.rel_error = e.nonfinite > 0 ? INFINITY : e.rel_frobenius;
    }
    results.push_back(r);
  }
  // Timed in two passes, the second in reverse order, each tile's figures the
  // mean of its two: a GPU warmed by the tiles before runs slower under its
  // power cap (rested_seconds' rests undo most of that; the sustained figure
  // depends on the temperature too).
  for (int pass = 0; pass < 2; ++pass)
    for (int j = 0; j < emulated_fp32_tile_count; ++j) {
      Result& r = results[pass == 0 ? j : emulated_fp32_tile_count - 1 - j];
      if (!r.fits) continue;
      const egemm::cuda::ScopedTuning forced(
          [&](egemm::cuda::Tuning& tuning) { tuning.sm90_tile = emulated_fp32_tiles[r.tile].name; });
      const double one = egemm::perf::rested_seconds(run, r.builtin.seconds > 2e-3 ? 5 : 9, rest, stream);
      const double queued = egemm::perf::queued_seconds(run, std::clamp(static_cast<int>(0.3 / one), 5, 1000),
                                                        std::clamp(static_cast<int>(0.2 / one), 3, 700), stream);
      r.rested_seconds += one / 2;
      r.sustained_seconds += queued / 2;
    }
  for (const Result& r : results)
    std::fprintf(stderr, "  %-12s %-10s %s\n", egemm::perf::shape_text(shape).c_str(), emulated_fp32_tiles[r.tile].name,
                 r.fits ? (std::to_string(r.rested_seconds * 1e3) + " ms rested (" +
                           std::to_string(r.sustained_seconds * 1e3) + " sustained), " +
                           std::to_string(flops / r.rested_seconds * 1e-12) + " TFLOP/s, error " +
                           std::to_string(r.rel_error))
                              .c_str()
                        : "does not fit");
  return results;
}

// The fastest tile by one of the two timings (a member of Result).
struct Best {
  double seconds = 0;
  int tile = -1;
};
Best best_of(const std::vector<Result>& rows, double Result::*timing) {
  Best b;
  for (const Result& r : rows)
    if (r.fits && (b.tile < 0 || r.*timing < b.seconds)) b = {r.*timing, r.tile};
  return b;
}

// Whether the model's pick is within 5% of the best by `timing`; prints the verdict.
bool report_pick(const std::vector<Result>& rows, int library_pick, double Result::*timing, const char* how) {
  const Best best = best_of(rows, timing);
  const double picked = rows[library_pick].*timing;
  const bool within = picked <= 1.05 * best.seconds;
  std::printf("Model's pick %s, %s: %.3f ms; sweep's best %s: %.3f ms; the pick is %.1f%% slower than the best (%s).\n",
              emulated_fp32_tiles[library_pick].name, how, picked * 1e3, emulated_fp32_tiles[best.tile].name,
              best.seconds * 1e3, 100.0 * (picked / best.seconds - 1.0), within ? "within 5%" : "NOT within 5%");
  return within;
}

void print_table(const std::vector<Result>& rows, int library_pick) {
  const Shape s = rows.front().shape;
  const double flops = 2.0 * s.m * static_cast<double>(s.n) * s.k;
  const double best_rested = best_of(rows, &Result::rested_seconds).seconds;
  const double best_sustained = best_of(rows, &Result::sustained_seconds).seconds;
  std::printf("\n### %s (kernel alone, split excluded)\n\n", egemm::perf::shape_text(s).c_str());
  std::printf("| tile | rested ms | TFLOP/s | vs best | sustained ms | vs best | predicted ms (built-in rates) | "
              "pred. / sustained | predicted ms (this run's rates) | limit (model) | rel. error vs float64 |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|\n");
  for (const Result& r : rows) {
    const char* name = emulated_fp32_tiles[r.tile].name;
    const char* mark = r.tile == library_pick ? " (model's pick)" : "";
    if (!r.fits) {
      std::printf("| %s%s | does not fit | | | | | | | | | |\n", name, mark);
      continue;
    }
    std::printf("| %s%s | %.3f | %.1f | %.3f | %.3f | %.3f | %.3f | %.2f | %.3f | %s%s | %.2e |\n", name, mark,
                r.rested_seconds * 1e3, flops / r.rested_seconds * 1e-12, r.rested_seconds / best_rested,
                r.sustained_seconds * 1e3, r.sustained_seconds / best_sustained, r.builtin.seconds * 1e3,
                r.builtin.seconds / r.sustained_seconds,  // the model assumes the capped clock
                r.measured_rates.seconds * 1e3, r.measured_rates.limit, r.builtin.splits_tail ? "; tail split by k" : "",
                r.rel_error);
  }
  std::printf("\n");
}

void print_resources(const char* title, const model::HopperResources& r) {
  std::printf("| %s | %d | %d | %d | %.0f | %.0f | %.2f | %.2f | %.2f |\n", title, r.sms, r.smem_per_sm / 1024,
              r.smem_per_block / 1024, r.clock_hz * 1e-6, r.tensor_flop_per_s * 1e-12, r.l2_bytes_per_s * 1e-12,
              r.dram_bytes_per_s * 1e-12, r.load_latency_s * 1e6);
}

}  // namespace

int main(int argc, char** argv) try {
  const Options options = parse(argc, argv);
  if (!egemm::cuda_available()) {
    std::fprintf(stderr, "egemm_sm90_tile_sweep: no CUDA device with tensor cores\n");
    return 2;
  }
  if (egemm::cuda::fused_kernel_for(egemm::PolicyId::emulated_fp32, egemm::EmulationPath::fp16_scaled) !=
      egemm::cuda::FusedKernel::wgmma_tma_sm90) {
    std::fprintf(stderr, "egemm_sm90_tile_sweep: the Hopper kernel does not run here (needs sm_90 and sm_90a code)\n");
    return 2;
  }
  cudaStream_t stream = nullptr;
  egemm::perf::check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  cudaDeviceProp prop{};
  egemm::perf::check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");

  std::fprintf(stderr, "measuring the device's rates...\n");
  const model::HopperResources builtin = egemm::cuda::hopper::hopper_resources();
  model::HopperResources measured = builtin;
  measured.tensor_flop_per_s = egemm::perf::hgemm_flop_per_s(8192, stream);
  measured.l2_bytes_per_s = egemm::perf::read_bandwidth(std::size_t{16} << 20, 40, stream);
  measured.dram_bytes_per_s = egemm::perf::read_bandwidth(std::size_t{4} << 30, 1, stream);

  std::printf("# Hopper tile sweep on %s\n\n", prop.name);
  std::printf("| figures | SMs | smem/SM KiB | smem/block KiB | clock MHz | tensor TFLOP/s | L2 TB/s | DRAM TB/s | "
              "latency us |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  print_resources("built into the library", builtin);
  print_resources("measured in this run", measured);
  // The persistent grids as launched (whole clusters where the GPCs can place them).
  std::printf("\nPersistent grids (blocks the GPU holds at once):");
  for (int i = 0; i < emulated_fp32_tile_count; ++i)
    std::printf("%s %s %d", i == 0 ? "" : ",", emulated_fp32_tiles[i].name,
                egemm::cuda::hopper::emulated_fp32_resident_blocks(i));
  std::printf(".\n\nRested: each timed call after %.2f s idle (0: synchronised calls back to back, each at the clock the "
              "calls before left). Sustained: ~0.3 s of calls queued after ~0.2 s of them.\n",
              options.rest);

  std::ofstream csv;
  if (!options.csv.empty()) {
    csv.open(options.csv);
    csv << "shape,tile,fits,rested_ms,predicted_ms,predicted_ms_measured_rates,limit,rel_error,model_pick,"
           "sustained_ms\n";
  }
  int within = 0, within_stream = 0;
  for (const Shape& s : options.shapes) {
    std::fprintf(stderr, "%s:\n", egemm::perf::shape_text(s).c_str());
    const std::vector<Result> rows = sweep_shape(s, builtin, measured, options.rest, stream);
    const int pick = model::pick(builtin, emulated_fp32_tiles, emulated_fp32_shape, s.m, s.n, s.k);
    print_table(rows, pick);
    within += report_pick(rows, pick, &Result::rested_seconds, "one call, rested");
    within_stream += report_pick(rows, pick, &Result::sustained_seconds, "sustained");
    for (const Result& r : rows)
      if (csv.is_open())
        csv << egemm::perf::shape_text(s) << ',' << emulated_fp32_tiles[r.tile].name << ',' << r.fits << ','
            << r.rested_seconds * 1e3
            << ',' << r.builtin.seconds * 1e3 << ',' << r.measured_rates.seconds * 1e3 << ',' << r.measured_rates.limit
            << ',' << r.rel_error << ',' << (r.tile == pick) << ',' << r.sustained_seconds * 1e3 << '\n';
  }
  std::printf("\nThe model's pick is within 5%% of the sweep's best on %d of %zu shapes one call at a time on a rested "
              "GPU, on %d sustained.\n",
              within, options.shapes.size(), within_stream);
  (void)cudaStreamDestroy(stream);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "egemm_sm90_tile_sweep: %s\n", e.what());
  return 1;
}
