// The CUDA backend's gemm: split both operands on CUDA cores, run the fused
// tensor-core kernel, recompute the entries special values touch; NativeFP32
// goes to cuBLAS. Everything is enqueued on the caller's stream: no
// synchronisation and no host read of device data anywhere on this path.
//
// EmulatedFP32 picks its path per call from the operands' row ranges
// (egemm/path_selection.hpp), like the host backend. The choice is made on
// the device: every path's kernels are enqueued and all but the chosen one
// exit at once (emulation_path.hpp). Before any of that, a problem where
// the emulation cannot win goes to cuBLAS SGEMM, which is faster there and
// as accurate as FP32 by definition: a C too small to give the kernel one
// full wave of blocks (kernel_dispatch.hpp), or one so thin or shallow that the
// split or each tile's fixed cost outweighs the tensor cores' gain
// (egemm/model/crossover.hpp).
//
// A call whose scratch cannot be had whole runs in panels of C, or through
// SGEMM where no panels fit (enqueue_within_memory_or_sgemm below).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "backends/cuda/cublas/cublas_native.hpp"
#include "backends/cuda/cuda_gemm.hpp"
#include "backends/cuda/kernel_dispatch.hpp"
#include "backends/cuda/route/crossover_rates.hpp"
#include "backends/cuda/route/emulation_path.hpp"
#include "backends/cuda/route/int8_route.hpp"
#include "backends/cuda/runtime/context_generation.hpp"
#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/kernel_images.hpp"
#include "backends/cuda/runtime/device_facts.hpp"
#include "backends/cuda/runtime/relaxed_capture.hpp"
#include "backends/cuda/runtime/scratch_panels.hpp"
#include "backends/cuda/runtime/tuning.hpp"
#include "backends/cuda/runtime/workspace.hpp"
#include "backends/cuda/sm80/tile_config.hpp"
#include "backends/cuda/special_entries/special_entries.hpp"
#include "backends/cuda/split/split_operand.hpp"
#include "egemm/errors.hpp"
#include "egemm/log.hpp"
#include "egemm/model/normwise_route.hpp"
#include "egemm/path_selection.hpp"

namespace egemm::cuda {
namespace {

index_t round_up(index_t v, index_t multiple) { return (v + multiple - 1) / multiple * multiple; }

// The kernels are built for sm_80 and newer (mma.sync.m16n8k16, cp.async, ldmatrix), and the
// build must hold code the device can load (its SASS, or PTX).
void require_tensor_cores(PolicyId policy) {
  const DeviceFacts d = device_facts();
  if (d.major < 8) {
    int device = 0;
    EGEMM_CUDA_CHECK(cudaGetDevice(&device));
    throw unsupported(std::string("egemm::gemm (CUDA, ") + policy_name(policy) + "): device " + std::to_string(device) +
                      " has compute capability " + std::to_string(d.major) + "." + std::to_string(d.minor) +
                      "; EGEMM's CUDA backend, every tag's path included, is built for sm_80 (Ampere) and newer"
                      " (for plain FP32 on this GPU, call cuBLAS directly)");
  }
  if (!kernel_images_load_here()) {
    int device = 0;
    EGEMM_CUDA_CHECK(cudaGetDevice(&device));
    throw unsupported(std::string("egemm::gemm (CUDA, ") + policy_name(policy) + "): device " + std::to_string(device) +
                      " (compute capability " + std::to_string(d.major) + "." + std::to_string(d.minor) +
                      ") cannot load this EGEMM's kernels, built for " + kernel_images_built_for() +
                      "; rebuild with EGEMM_CUDA_ARCHITECTURES holding this GPU's architecture or 80-virtual (PTX)");
  }
}

// The kernels' grids bound the extents: the split's panels and the gemm's
// tiles count padded rows in 32 bits, the split's k panels fit gridDim.y.
// Checked before any scratch memory is asked for, so that too large a problem
// says so rather than running out of memory.
void require_grid_extents(PolicyId policy, const GemmArgs& g) {
  constexpr index_t row_limit = split_max_rows;
  constexpr index_t k_limit = split_max_depth;
  if (g.m > row_limit || g.n > row_limit || g.k > k_limit)
    throw unsupported(std::string("egemm::gemm (CUDA, ") + policy_name(policy) + "): m = " + std::to_string(g.m) +
                      ", n = " + std::to_string(g.n) + ", k = " + std::to_string(g.k) +
                      " exceed the tensor-core kernels' grids (m and n up to " + std::to_string(row_limit) +
                      ", k up to " + std::to_string(k_limit) + "); NativeFP32 takes any size");
}

// Both operands' split forms inside the call's workspace (a measuring carver only counts them).
struct SplitPair {
  SplitOperand a, b;
  std::uint32_t* stats = nullptr;  // every stats word and flag below: zeroed with one memset
  std::size_t stats_bytes = 0;
  std::uint32_t* any_nonfinite = nullptr;
  std::uint32_t* path_word = nullptr;
  std::uint32_t* verdict_blocks = nullptr;  // the path choice's blocks count themselves here
  std::uint32_t* split_tickets = nullptr;   // Int8Slices' split blocks take their panels in order here
};

// A pair's extents: op(A)'s rows and op(B)^T's, k padded to `depth_multiple`.
SplitPair split_shape(const GemmArgs& g, index_t depth_multiple) {
  SplitPair s;
  s.a.rows = g.m;
  s.b.rows = g.n;
  s.a.rows_pad = round_up(g.m, split_row_multiple);
  s.b.rows_pad = round_up(g.n, split_row_multiple);
  for (SplitOperand* op : {&s.a, &s.b}) {
    op->depth = g.k;
    op->depth_pad = round_up(g.k, depth_multiple);
  }
  return s;
}

// The pair's statistics: per operand its words (split_operand.hpp), then two
// flags and two counters; all zeroed by one memset before the split.
void carve_stats(WorkspaceCarver& carver, SplitPair& s) {
  const std::size_t words = static_cast<std::size_t>(split_stats_words(s.a.rows) + split_stats_words(s.b.rows) + 4);
  s.stats = carver.take<std::uint32_t>(words);
  s.stats_bytes = words * sizeof(std::uint32_t);
  if (s.stats == nullptr) return;
  std::uint32_t* w = place_split_stats(s.b, place_split_stats(s.a, s.stats));
  s.any_nonfinite = w;
  s.path_word = w + 1;
  s.verdict_blocks = w + 2;
  s.split_tickets = w + 3;
}

// The pair's pieces, row exponents and TF32 panel marks: what the split writes.
void carve_pieces(WorkspaceCarver& carver, int pieces, std::size_t piece_bytes, SplitPair& s) {
  for (SplitOperand* op : {&s.a, &s.b}) {
    for (int piece = 0; piece < pieces; ++piece)
      op->piece[piece] = carver.take<unsigned char>(static_cast<std::size_t>(op->rows_pad * op->depth_pad) * piece_bytes);
    op->exponent = carver.take<int>(static_cast<std::size_t>(op->rows_pad));
    op->panel_in_tf32 = carver.take<std::uint32_t>(static_cast<std::size_t>(split_panels(*op)));
  }
}

// EmulatedFP32's outlier thresholds and slots (split_operand.hpp): written
// before they are read, never zeroed.
void carve_outlier_slots(WorkspaceCarver& carver, SplitPair& s) {
  for (SplitOperand* op : {&s.a, &s.b}) {
    op->outlier_threshold_bits = carver.take<std::uint32_t>(static_cast<std::size_t>(op->rows_pad));
    op->outlier_slots = carver.take<uint2>(static_cast<std::size_t>(op->rows_pad * numerics::outlier_slots));
  }
}

// NormwiseFP32's column sums (split_operand.hpp), written by the digits'
// split and read by the route's cross kernel, before the pieces' space.
void carve_column_sums(WorkspaceCarver& carver, SplitPair& s) {
  for (SplitOperand* op : {&s.a, &s.b}) {
    const auto entries = static_cast<std::size_t>(op->rows_pad / split_panel_rows * op->depth_pad);
    op->column_sums.squares = carver.take<double>(entries);
    op->column_sums.weights = carver.take<double>(entries);
    op->column_sums.nonzeros = carver.take<std::uint8_t>(entries);
    op->column_sums.row_panel_weights = carver.take<double>(static_cast<std::size_t>(op->rows_pad / split_panel_rows));
  }
}

// What Policy's split writes per element: a path-selecting call (EmulatedFP32)
// may split into TF32 (float) pieces, so room for either form.
template <class Policy>
constexpr std::size_t piece_bytes_of() {
  using traits = policy_traits<Policy>;
  if (traits::split == SplitRule::int8_digits) return 1;
  return traits::id == PolicyId::emulated_fp32 || traits::split == SplitRule::tf32 ? 4 : 2;
}

// EGEMM_LOG=debug: EmulatedFP32's path (or NormwiseFP32's route) as the
// device chose it, and the wide rows the FP16 path recomputes.
struct PathReport {
  std::uint32_t word = 0, wide_a = 0, wide_b = 0, outlier_a = 0, outlier_b = 0;
  numerics::Int8CrossTerms cross;  // NormwiseFP32: the cross rule's sums its route held against the bound
};

// Policy's split, gemm and entry fixups on a carved pair whose statistics
// are zero, in stream order, the gemm's scratch taken from `scratch`.
// EmulatedFP32 chooses its path on the device in `path_word` (its own, or
// NormwiseFP32's, which may have taken the digits: then all of it exits at
// once, behind_route sizing its split's grid for that).
template <class Policy>
void enqueue_split_and_gemm(const GemmArgs& g, const SplitPair& s, std::uint32_t* path_word, WorkspaceCarver& scratch,
                            cudaStream_t stream, bool behind_route = false) {
  using traits = policy_traits<Policy>;
  constexpr bool selects_path = traits::id == PolicyId::emulated_fp32;
  constexpr bool digits = traits::split == SplitRule::int8_digits;
  const bool enqueue = !scratch.measures_only();
  if (enqueue) {
    if constexpr (selects_path) {
      launch_emulated_fp32_split(g.a_rows(), g.b_cols(), s.a, s.b, path_word, s.verdict_blocks, s.any_nonfinite, stream,
                                 behind_route);
    } else if constexpr (digits) {
      launch_int8_slices_split(g.a_rows(), g.b_cols(), s.a, s.b, s.any_nonfinite, s.split_tickets, stream);
    } else {
      // Without scaling or a path to choose, the split only records the non-finite flags.
      static_assert(!traits::scales_rows_and_columns, "row scaling is EmulatedFP32's split");
      launch_split_both(g.a_rows(), g.b_cols(), traits::split, s.a, s.b, s.any_nonfinite, stream);
    }
  }
  const std::uint32_t* gate = selects_path ? path_word : nullptr;
  const std::size_t paths_scratch = scratch.size();
  launch_fused_gemm(traits::id, s.a, s.b, g, gate, EmulationPath::fp16_scaled, scratch, stream);
  if (selects_path) {
    // Only the path the device chose does any work, after the other's
    // kernels in stream order: the two share their scratch.
    const std::size_t fp16_end = scratch.size();
    scratch.rewind_to(paths_scratch);
    launch_fused_gemm(traits::id, s.a, s.b, g, gate, EmulationPath::tf32_full_range, scratch, stream);
    scratch.extend_to(fp16_end);
  }
  if (enqueue) launch_special_entries(g, s.a, s.b, s.any_nonfinite, gate, stream, /*digits=*/false);
}

// EGEMM_LOG=debug: the path word, and EmulatedFP32's wide rows, copied back
// (to pageable memory: the call waits) before the workspace is freed.
void copy_back_report(const SplitPair& s, const std::uint32_t* path_word, PathReport& report, cudaStream_t stream) {
  const auto copy_back = [&](std::uint32_t& to, const std::uint32_t* from) {
    EGEMM_CUDA_CHECK(cudaMemcpyAsync(&to, from, sizeof to, cudaMemcpyDeviceToHost, stream));
  };
  copy_back(report.word, path_word);
  copy_back(report.wide_a, s.a.wide_count);
  copy_back(report.wide_b, s.b.wide_count);
  copy_back(report.outlier_a, s.a.outlier_lines);
  copy_back(report.outlier_b, s.b.outlier_lines);
}

// A call's work in stream order, its scratch taken from `scratch` as it goes.
// With a carver that only measures, nothing is enqueued: that pass sizes
// the call's one workspace.
template <class Policy>
void enqueue_emulated_gemm(const GemmArgs& g, WorkspaceCarver& scratch, cudaStream_t stream,
                           PathReport* report = nullptr) {
  using traits = policy_traits<Policy>;
  SplitPair s = split_shape(g, split_depth_multiple_for(traits::split));
  carve_pieces(scratch, traits::pieces_per_operand, piece_bytes_of<Policy>(), s);
  if (traits::id == PolicyId::emulated_fp32) carve_outlier_slots(scratch, s);
  carve_stats(scratch, s);
  const bool enqueue = !scratch.measures_only();
  if (enqueue) EGEMM_CUDA_CHECK(cudaMemsetAsync(s.stats, 0, s.stats_bytes, stream));
  enqueue_split_and_gemm<Policy>(g, s, s.path_word, scratch, stream);
  if (enqueue && report != nullptr && traits::id == PolicyId::emulated_fp32) copy_back_report(s, s.path_word, *report, stream);
}

// NormwiseFP32 (int8_route.hpp): Int8Slices' split with the column sums, the
// route, the digits' gemm and fixups, then EmulatedFP32's whole sequence,
// each kernel gated on the route's path word. The two sequences' pieces
// share their workspace (EmulatedFP32's split starts after the digits' last
// reader, in stream order); their statistics do not: both, and the route's
// state between them, are zeroed before the first kernel, and the route's
// word, which EmulatedFP32's kernels read, is the digits'.
void enqueue_normwise_gemm(const GemmArgs& g, WorkspaceCarver& scratch, cudaStream_t stream,
                           PathReport* report = nullptr) {
  SplitPair digits = split_shape(g, split_depth_multiple_for(SplitRule::int8_digits));
  SplitPair fallback = split_shape(g, split_depth_multiple_for(SplitRule::round_scaled_lo));
  carve_stats(scratch, digits);
  auto* const route_state = scratch.take<RouteState>(1);
  carve_stats(scratch, fallback);
  carve_column_sums(scratch, digits);
  const auto cross_groups = static_cast<std::size_t>(int8_cross_groups(digits.a.depth_pad));
  auto* const cross_terms = scratch.take<numerics::Int8CrossTerms>(cross_groups + 1);
  std::uint32_t* const path_word = digits.path_word;
  const bool enqueue = !scratch.measures_only();
  if (enqueue) {  // the three blocks, taken one after another, in one memset (a launch costs the host ~7 us)
    const auto* first = reinterpret_cast<unsigned char*>(digits.stats);
    const auto* end = reinterpret_cast<unsigned char*>(fallback.stats) + fallback.stats_bytes;
    EGEMM_CUDA_CHECK(cudaMemsetAsync(digits.stats, 0, static_cast<std::size_t>(end - first), stream));
  }
  const std::size_t pieces_at = scratch.size();
  carve_pieces(scratch, policy_traits<Int8Slices>::pieces_per_operand, piece_bytes_of<Int8Slices>(), digits);
  if (enqueue) {
    launch_int8_slices_split(g.a_rows(), g.b_cols(), digits.a, digits.b, digits.any_nonfinite, digits.split_tickets,
                             stream);
    launch_int8_route(digits.a, digits.b, g.k, cross_terms, route_state, path_word, stream);
  }
  launch_fused_gemm(PolicyId::int8_slices, digits.a, digits.b, g, path_word, EmulationPath::int8_digits, scratch, stream);
  if (enqueue) launch_special_entries(g, digits.a, digits.b, digits.any_nonfinite, path_word, stream, /*digits=*/true);
  const std::size_t digits_end = scratch.size();
  scratch.rewind_to(pieces_at);
  carve_pieces(scratch, policy_traits<EmulatedFP32>::pieces_per_operand, piece_bytes_of<EmulatedFP32>(), fallback);
  carve_outlier_slots(scratch, fallback);
  enqueue_split_and_gemm<EmulatedFP32>(g, fallback, path_word, scratch, stream, /*behind_route=*/true);
  scratch.extend_to(digits_end);
  if (enqueue && report != nullptr) {
    copy_back_report(fallback, path_word, *report, stream);
    EGEMM_CUDA_CHECK(cudaMemcpyAsync(&report->cross, cross_terms + cross_groups, sizeof report->cross,
                                     cudaMemcpyDeviceToHost, stream));
  }
}

// Whether this call can wait to report its path: not while `stream` is captured.
bool can_report_path(cudaStream_t stream) {
  if (!debug_log_enabled()) return false;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess || capture != cudaStreamCaptureStatusNone) {
    log_debug([] { return std::string("cuda EmulatedFP32: the stream is captured; the path is chosen at replay"); });
    return false;
  }
  return true;
}

// Panels of C start on whole tiles, so only the last of a row or column of them is partial.
static_assert(panel_granule % split_row_multiple == 0, "panels of C start on whole tiles");

// Bytes as MiB with one decimal, for the log.
std::string mib(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return text;
}

// "cuda <tag> NN m=.. n=.. k=..: <bytes> of scratch not available (<free>) -> <what ran>".
std::string describe_scratch_outcome(PolicyId policy, const GemmArgs& g, const ScratchOutcome& s) {
  std::size_t free = 0, total = 0;
  {
    const RelaxedCaptureScope relaxed;  // a capture in progress on this thread would refuse the query
    (void)cudaMemGetInfo(&free, &total);
  }
  std::string line = std::string("cuda ") + policy_name(policy) + " " + describe(g) + ": " + mib(s.whole_bytes) +
                     " of scratch not available (" + mib(free) + " free) -> ";
  if (!s.ran) return line + "native_fp32 (" + (s.stopped_paying ? "smaller panels would not pay)" : "no panels fit)");
  return line + std::to_string(s.panel_count) + " panels of " + std::to_string(s.panels.rows) + " x " +
         std::to_string(s.panels.cols) + " on one " + mib(s.panel_bytes) + " workspace";
}

// The call's launch sequence on the scratch the device can give it
// (enqueue_within_memory): whole, in panels of C, or, where not even the
// smallest panels' scratch fits, cuBLAS SGEMM. EmulatedFP32 and
// NormwiseFP32 take SGEMM as soon as the panels are too small for the
// tensor cores to win, as their calls of that shape would. True where the
// call ran whole.
template <class Enqueue>
bool enqueue_within_memory_or_sgemm(PolicyId policy, const GemmArgs& g, cudaStream_t stream, Enqueue&& enqueue) {
  const bool hands_off_small_calls = policy == PolicyId::emulated_fp32 || policy == PolicyId::normwise_fp32;
  const ScratchOutcome s = enqueue_within_memory(g, stream, enqueue, [&](PanelShape p) {
    return !hands_off_small_calls || emulated_fp32_on_tensor_cores(p.rows, p.cols, g.k);
  });
  if (s.whole()) return true;
  log_debug([&] { return describe_scratch_outcome(policy, g, s); });
  if (!s.ran) native_sgemm(g, stream);
  return false;
}

// All the call's scratch in one allocation before anything is enqueued (a
// second allocation behind the first path's gemm could fail after that gemm
// had written C); where it cannot be had, panels of C or SGEMM.
template <class Policy>
void emulated_gemm(const GemmArgs& g, cudaStream_t stream) {
  require_grid_extents(policy_traits<Policy>::id, g);
  PathReport report;
  PathReport* const wanted =
      policy_traits<Policy>::id == PolicyId::emulated_fp32 && can_report_path(stream) ? &report : nullptr;
  const bool whole = enqueue_within_memory_or_sgemm(
      policy_traits<Policy>::id, g, stream, [&](const GemmArgs& part, WorkspaceCarver& scratch, bool is_whole) {
        enqueue_emulated_gemm<Policy>(part, scratch, stream, is_whole ? wanted : nullptr);
      });
  if (wanted != nullptr && whole)
    log_debug([&] {
      return describe_path_choice("cuda", g, path_from_word(report.word), report.wide_a, report.wide_b, report.outlier_a,
                                  report.outlier_b);
    });
}

}  // namespace

// EGEMM_SMALL_GEMM_FALLBACK=0 (or the tuning's small_gemm_fallback = false)
// keeps EmulatedFP32 on the tensor cores at every size and shape (the GPU
// tests use it to exercise the kernels on small problems).
bool emulated_fp32_on_tensor_cores(index_t m, index_t n, index_t k) {
  int device = 0;
  EGEMM_CUDA_CHECK(cudaGetDevice(&device));
  return emulated_fp32_on_tensor_cores(device, m, n, k);
}

bool emulated_fp32_on_tensor_cores(int device, index_t m, index_t n, index_t k) {
  const Tuning& t = tuning();
  if (!small_gemm_fallback(t)) return true;
  const Sm90Kernel forced = t.sm90_kernel;  // read before the model's lookups call tuning() again
  // The model's answer costs ~0.3 us of a hand-off's host time (three
  // per-device caches); a thread's calls mostly repeat one shape, so its
  // last answer is kept, for the device, context and kernel it was made on.
  struct Answer {
    int device = -1;
    unsigned generation = 0;
    Sm90Kernel forced = Sm90Kernel::model;
    index_t m = -1, n = -1, k = -1;
    bool on_tensor_cores = false;
  };
  thread_local Answer last;
  const unsigned generation = context_generation(device);
  if (last.device == device && last.generation == generation && last.forced == forced && last.m == m && last.n == n &&
      last.k == k)
    return last.on_tensor_cores;
  const FusedKernel kernel = fused_kernel_for(PolicyId::emulated_fp32, EmulationPath::fp16_scaled);
  const bool answer = model::emulation_pays(emulated_fp32_crossover_model(kernel), m, n, k,
                                            emulated_fp32_wave_utilisation(kernel, m, n));
  last = {device, generation, forced, m, n, k, answer};
  return answer;
}

namespace {
void emulated_fp32_gemm(const GemmArgs& args, cudaStream_t stream) {
  if (!emulated_fp32_on_tensor_cores(args.m, args.n, args.k)) {
    log_debug([&] { return "cuda EmulatedFP32 " + describe(args) + " -> native_fp32 (the emulation cannot win here)"; });
    return native_sgemm(args, stream);
  }
  emulated_gemm<EmulatedFP32>(args, stream);
}

// NormwiseFP32: where EmulatedFP32 hands off to SGEMM, the route cannot pay
// for itself (model::normwise_route_pays; both off with
// EGEMM_SMALL_GEMM_FALLBACK=0), or k is deeper than the digits' exact sums,
// EmulatedFP32's call; else the route on the device.
void normwise_fp32_gemm(const GemmArgs& args, cudaStream_t stream) {
  const bool digits_can_win = !small_gemm_fallback() || model::normwise_route_pays(args.m, args.n, args.k);
  if (!emulated_fp32_on_tensor_cores(args.m, args.n, args.k) || !digits_can_win || args.k > int8_slices_max_depth) {
    log_debug([&] { return "cuda NormwiseFP32 " + describe(args) + " -> EmulatedFP32 (no digits for this shape)"; });
    return emulated_fp32_gemm(args, stream);
  }
  require_grid_extents(PolicyId::normwise_fp32, args);
  PathReport report;
  PathReport* const wanted = can_report_path(stream) ? &report : nullptr;
  const bool whole = enqueue_within_memory_or_sgemm(
      PolicyId::normwise_fp32, args, stream, [&](const GemmArgs& part, WorkspaceCarver& scratch, bool is_whole) {
        enqueue_normwise_gemm(part, scratch, stream, is_whole ? wanted : nullptr);
      });
  if (wanted != nullptr && whole)
    log_debug([&] { return describe_normwise_route("cuda", args, path_from_word(report.word), report.cross); });
}
}  // namespace

void gemm(PolicyId policy, const GemmArgs& args, cudaStream_t stream) {
  const CallTuning call_tuning;  // both passes of the launch sequence see the same tuning values
  require_tensor_cores(policy);
  switch (policy) {
    case PolicyId::emulated_fp32: return emulated_fp32_gemm(args, stream);
    case PolicyId::int8_slices:
      // Deeper than an exact int32 sum holds: EmulatedFP32, as the host backend does.
      if (args.k > int8_slices_max_depth) {
        log_debug([&] { return "cuda Int8Slices " + describe(args) + " -> EmulatedFP32 (k beyond int8_slices_max_depth)"; });
        return emulated_fp32_gemm(args, stream);
      }
      return emulated_gemm<Int8Slices>(args, stream);
    case PolicyId::round_split4: return emulated_gemm<RoundSplit4>(args, stream);
    case PolicyId::truncate_split4: return emulated_gemm<TruncateSplit4>(args, stream);
    case PolicyId::half: return emulated_gemm<Half>(args, stream);
    case PolicyId::full_range_tf32x3: return emulated_gemm<FullRangeTF32x3>(args, stream);
    case PolicyId::native_fp32: return native_sgemm(args, stream);
    case PolicyId::normwise_fp32: return normwise_fp32_gemm(args, stream);
  }
  throw invalid_argument("egemm::gemm (CUDA): unknown policy id");
}

}  // namespace egemm::cuda
