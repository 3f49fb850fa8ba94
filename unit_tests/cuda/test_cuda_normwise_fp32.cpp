// NormwiseFP32 on the GPU: the route is decided on the device from the
// digits' row weights and column sums, so the tests check both ways it can go
// on fresh random inputs with C poisoned: where every row holds the digits (the host's
// normwise_fp32_path says int8_digits) the result is the host oracle's bits
// (Int8Slices' sums are exact); where a row spreads, it is EmulatedFP32's own
// result on the device, bit for bit (the same kernels run), on every kernel,
// both splits, with alpha, beta, transposes, padding and Inf/NaN rows.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "backends/cuda/route/emulation_path.hpp"
#include "backends/cuda/route/int8_route.hpp"
#include "device_support.hpp"
#include "egemm/path_selection.hpp"

namespace egemm {
namespace {

EmulationPath host_route(const GemmArgs& g) { return normwise_fp32_path(g); }

// Entries of op(A) and op(B) in the stored matrices.
float& op_a(test::GemmInputs& in, const test::GemmCase& c, index_t i, index_t p) {
  return c.trans_a == 'N' ? in.a(i, p) : in.a(p, i);
}
float& op_b(test::GemmInputs& in, const test::GemmCase& c, index_t p, index_t j) {
  return c.trans_b == 'N' ? in.b(p, j) : in.b(j, p);
}

// C (padding rows included) equal bit for bit, NaN for NaN.
void expect_same_bits(const test::GemmCase& c, const std::vector<float>& got, const std::vector<float>& want,
                      index_t ldc, const char* what) {
  int differ = 0;
  for (index_t j = 0; j < c.n; ++j)
    for (index_t i = 0; i < ldc; ++i) {
      const float d = got[i + j * ldc], w = want[i + j * ldc];
      const bool both_nan = std::isnan(d) && std::isnan(w);
      if (std::memcmp(&d, &w, sizeof d) != 0 && !both_nan && differ++ < 5)
        ADD_FAILURE() << "C(" << i << "," << j << "): NormwiseFP32 " << d << ", " << what << " " << w;
    }
  EXPECT_EQ(differ, 0) << differ << " entries differ from " << what;
}

// NormwiseFP32 on the device against the route's own result: the host
// oracle's bits for the digits, EmulatedFP32 on the device otherwise.
void expect_route_bits(const test::GemmCase& c, const test::GemmInputs& in, EmulationPath want_route) {
  ASSERT_EQ(host_route(in.args), want_route) << "the test's inputs should take " << path_name(want_route);
  std::vector<float> normwise(in.c.data), expected(in.c.data);
  GemmArgs g = in.args;
  g.c = normwise.data();
  test::run_on_device(NormwiseFP32{}, g, nullptr);
  g.c = expected.data();
  if (want_route == EmulationPath::int8_digits) {
    test::run_on_host(Int8Slices{}, g, expected.data());
    expect_same_bits(c, normwise, expected, in.c.ld, "the host oracle (Int8Slices)");
  } else {
    test::run_on_device(EmulatedFP32{}, g, nullptr);
    expect_same_bits(c, normwise, expected, in.c.ld, "EmulatedFP32 on the device");
  }
}

// Uniform rows deep enough for the digits (2^e / mean|x| ~ 4 <= sqrt(k) / 10 from k ~ 1600).
// (At least 64 entries of C each: numerics::int8_norm_spread_over_entries.)
const test::GemmCase digit_cases[] = {
    {'N', 'N', 8, 8, 2048, 1.0f, 0.0f, 0},        {'N', 'T', 7, 10, 2100, 1.0f, 0.0f, 3},
    {'T', 'N', 33, 35, 2500, -0.75f, 2.0f, 1},    {'T', 'T', 130, 129, 2057, 1.0f, 0.5f, 0},
    {'N', 'T', 300, 260, 4096, 1.0f, 0.0f, 1},    {'T', 'N', 512, 512, 4096, 1.0f, -2.5f, 0},
};

TEST(CudaNormwiseFP32, NarrowRowsTakeTheDigitsWithTheHostOraclesBits) {
  EGEMM_REQUIRE_GPU();
  test::for_each_digits_kernel_and_split([&](const std::string& variant) {
    for (const test::GemmCase& c : digit_cases) {
      const std::uint64_t seed = test::fresh_seed();
      SCOPED_TRACE(::testing::Message() << variant << " " << c.trans_a << c.trans_b << " m=" << c.m << " n=" << c.n
                                        << " k=" << c.k << " seed=" << seed);
      test::GemmInputs in = test::make_inputs(c, seed);
      if (c.beta == 0.0f) test::poison(in.c);
      expect_route_bits(c, in, EmulationPath::int8_digits);
      if (::testing::Test::HasFailure()) return;
    }
  });
}

// The same shapes with one value of 1024 in a row of op(A) or a column of
// op(B): the device sends the call to EmulatedFP32 after the digits' split.
TEST(CudaNormwiseFP32, OneSpreadRowOrColumnRunsEmulatedFP32WithItsBits) {
  EGEMM_REQUIRE_GPU();
  for (const cuda::Sm90Kernel kernel : test::each_digits_kernel_switch()) {
    const cuda::ScopedTuning choice([&](cuda::Tuning& t) { t.sm90_kernel = kernel; });
    for (const test::GemmCase& c : digit_cases)
      for (bool in_a : {true, false}) {
        const std::uint64_t seed = test::fresh_seed();
        SCOPED_TRACE(::testing::Message() << test::fused_kernel_switch_label(kernel) << " " << c.trans_a << c.trans_b
                                          << " m=" << c.m << " n=" << c.n << " k=" << c.k
                                          << (in_a ? ", spread row of op(A)" : ", spread column of op(B)")
                                          << " seed=" << seed);
        test::GemmInputs in = test::make_inputs(c, seed);
        // Set, not scaled: a uniform value scaled by 1024 could stay below 4 (about 1 in 250) and not spread.
        if (in_a)
          op_a(in, c, c.m - 1, c.k / 2) = 1024.0f;
        else
          op_b(in, c, c.k - 1, c.n / 2) = -1024.0f;
        if (c.beta == 0.0f) test::poison(in.c);
        expect_route_bits(c, in, EmulationPath::fp16_scaled);
        if (::testing::Test::HasFailure()) return;
      }
  }
}

// Where a few entries carry C's norm the device runs EmulatedFP32, as the
// host does: C of one entry or 63, one row of op(A) and column of op(B) 8x
// above the rest; 8 x 8 takes the digits.
TEST(CudaNormwiseFP32, FewEntriesCarryingTheNormRunEmulatedFP32WithItsBits) {
  EGEMM_REQUIRE_GPU();
  struct Case {
    test::GemmCase c;
    bool one_row_and_column_above;
    EmulationPath route;
  };
  const Case cases[] = {{{'N', 'N', 1, 1, 2048, 1.0f, 0.0f, 0}, false, EmulationPath::fp16_scaled},
                        {{'T', 'N', 7, 9, 2100, 1.0f, 0.0f, 0}, false, EmulationPath::fp16_scaled},
                        {{'N', 'T', 8, 8, 2048, 1.0f, 0.0f, 0}, false, EmulationPath::int8_digits},
                        {{'N', 'N', 64, 48, 4096, 1.0f, 0.0f, 0}, true, EmulationPath::fp16_scaled}};
  for (const Case& x : cases) {
    const std::uint64_t seed = test::fresh_seed();
    SCOPED_TRACE(::testing::Message() << x.c.trans_a << x.c.trans_b << " m=" << x.c.m << " n=" << x.c.n
                                      << " k=" << x.c.k << " seed=" << seed);
    test::GemmInputs in = test::make_inputs(x.c, seed);
    if (x.one_row_and_column_above)
      for (index_t p = 0; p < x.c.k; ++p) {
        op_a(in, x.c, 5, p) *= 8.0f;
        op_b(in, x.c, p, 7) *= 8.0f;
      }
    test::poison(in.c);
    expect_route_bits(x.c, in, x.route);
  }
}

// Inf/NaN rows (recomputed by the fixups of the route taken, reading C once
// with beta != 0), zero rows, and rows wide enough for EmulatedFP32's TF32 path.
TEST(CudaNormwiseFP32, SpecialValuesZeroRowsAndWideRowsOnBothRoutes) {
  EGEMM_REQUIRE_GPU();
  // 640 rows: more split panels (20 x 16 x 2) than the fallback's split grid holds (132 SMs x 4).
  const test::GemmCase c{'N', 'N', 640, 150, 2048, 1.5f, -0.5f, 2};
  for (int variant = 0; variant < 3; ++variant) {
    const std::uint64_t seed = test::fresh_seed();
    SCOPED_TRACE(::testing::Message() << "variant " << variant << " seed=" << seed);
    test::GemmInputs in = test::make_inputs(c, seed);
    for (index_t p = 0; p < c.k; ++p) {
      in.a(3, p) = 0.0f;  // a zero row of op(A)
      in.b(p, 4) = 0.0f;  // a zero column of op(B)
    }
    in.a(10, 17) = std::numeric_limits<float>::infinity();
    in.b(40, 20) = std::numeric_limits<float>::quiet_NaN();
    EmulationPath route = EmulationPath::int8_digits;
    if (variant == 1) {
      in.a(20, 5) = 1024.0f;  // one spread row: EmulatedFP32's FP16 path
      route = EmulationPath::fp16_scaled;
    } else if (variant == 2) {  // every row over 2^-40..2^40: EmulatedFP32's TF32 path
      for (index_t i = 0; i < c.m; ++i)
        for (index_t p = 0; p < c.k; ++p)
          if (std::isfinite(in.a(i, p))) in.a(i, p) = std::ldexp(in.a(i, p), static_cast<int>((i * 7 + p * 13) % 81) - 40);
      route = EmulationPath::tf32_full_range;
    }
    expect_route_bits(c, in, route);
  }
}

// Small elements that meet the other operand's mass (test::small_halves_meeting),
// in halves of k or interleaved, in op(A) or (the product transposed) in
// op(B): every row passes the row rule, the column sums the split writes
// fail the cross rule, and the device runs EmulatedFP32, as the host does;
// on every kernel and both splits (each writes the column sums).
TEST(CudaNormwiseFP32, TheCrossRuleOnTheDeviceDecidesAsTheHosts) {
  EGEMM_REQUIRE_GPU();
  test::for_each_digits_kernel_and_split([&](const std::string& variant) {
    for (bool interleaved : {false, true})
      for (bool in_b : {false, true}) {
        const test::GemmCase c = in_b ? test::GemmCase{'T', 'T', 40, 48, 16384, 1.0f, 0.0f, 0}
                                      : test::GemmCase{'N', 'N', 48, 40, 16384, 1.0f, 0.0f, 0};
        const std::uint64_t seed = test::fresh_seed();
        SCOPED_TRACE(::testing::Message() << variant << (interleaved ? ", interleaved" : ", halves")
                                          << (in_b ? ", in op(B)" : ", in op(A)") << " seed=" << seed);
        test::GemmInputs in = test::make_inputs(c, seed);
        // C^T = B^T A^T: with both transposed, op(A) = B^T and op(B) = A^T of the same stored matrices.
        const test::AlignedOperands o = test::small_halves_meeting(seed, interleaved);
        const test::Matrix& stored_a = in_b ? o.b : o.a;
        const test::Matrix& stored_b = in_b ? o.a : o.b;
        ASSERT_EQ(in.a.data.size(), stored_a.data.size());
        ASSERT_EQ(in.b.data.size(), stored_b.data.size());
        std::copy(stored_a.data.begin(), stored_a.data.end(), in.a.data.begin());
        std::copy(stored_b.data.begin(), stored_b.data.end(), in.b.data.begin());
        test::poison(in.c);
        ASSERT_TRUE(int8_digits_hold(in.args.a_rows()) && int8_digits_hold(in.args.b_cols()))
            << "every row should pass the row rule: the case would not test the cross rule";
        // EmulatedFP32's own path (FP16, or TF32 where many rows are wide).
        const EmulationPath fallback =
            choose_emulation_path(range_verdict(in.args.a_rows()), range_verdict(in.args.b_cols()));
        expect_route_bits(c, in, fallback);
        if (::testing::Test::HasFailure()) return;
      }
  });
}

// One operand's random column sums of each 32-row panel, over many decades
// (any doubles test the order), on the host and as the split leaves them on
// the device (split_operand.hpp): where all 32 rows count (half the
// entries) c_p alone, its own z_p and n_p slots holding NaN and 99, unread;
// elsewhere -c_p (-0.0 for some zero ones), z_p and n_p.
struct PanelSums {
  index_t rows = 0;
  std::vector<numerics::Int8ColumnSum> host;
  test::DeviceBuffer<double> squares, weights, row_panel_weights;
  test::DeviceBuffer<std::uint8_t> nonzeros;
  test::DeviceBuffer<std::uint32_t> row_weight;  // 2^24 each: every row holds the digits and carries the norm
  test::DeviceBuffer<int> row_exponent;          // zeros
  cuda::SplitOperand op;

  PanelSums(index_t rows_, index_t depth, double weight_scale, std::mt19937_64& gen)
      : rows(rows_),
        host(static_cast<std::size_t>((rows_ + 31) / 32 * depth)),
        squares(host.size()),
        weights(host.size()),
        row_panel_weights(static_cast<std::size_t>((rows_ + 31) / 32)),
        nonzeros(host.size()),
        row_weight(std::vector<std::uint32_t>(static_cast<std::size_t>(rows_), 1u << 24)),
        row_exponent(std::vector<int>(static_cast<std::size_t>(rows_), 0)) {
    std::uniform_real_distribution<double> mantissa(0.5, 1.0);
    std::uniform_int_distribution<int> exponent(-60, 60), count(0, 31), all_rows(0, 1), zero_squares(0, 7);
    std::vector<double> sq(host.size()), w(host.size()), panel_w(row_panel_weights.size());
    std::vector<std::uint8_t> nz(host.size());
    for (double& x : panel_w) x = weight_scale * std::ldexp(mantissa(gen), exponent(gen));
    for (std::size_t i = 0; i < host.size(); ++i) {
      const bool all = all_rows(gen) == 1;
      const double c = !all && zero_squares(gen) == 0 ? 0.0 : std::ldexp(mantissa(gen), exponent(gen));
      sq[i] = all ? c : -c;
      w[i] = all ? std::numeric_limits<double>::quiet_NaN() : weight_scale * std::ldexp(mantissa(gen), exponent(gen));
      nz[i] = static_cast<std::uint8_t>(all ? 99 : count(gen));
      host[i] = {c, all ? panel_w[i / static_cast<std::size_t>(depth)] : w[i], all ? 32u : nz[i]};
    }
    squares.upload(sq);
    weights.upload(w);
    row_panel_weights.upload(panel_w);
    nonzeros.upload(nz);
    op.rows = rows_;
    op.rows_pad = (rows_ + 31) / 32 * 32;
    op.depth = op.depth_pad = depth;
    op.row_weight = row_weight.get();
    op.exponent = row_exponent.get();
    op.column_sums = {squares.get(), weights.get(), nonzeros.get(), row_panel_weights.get()};
  }
};

// The route (cross kernel, then route kernel) on two operands' column sums,
// from a zeroed state; synchronised, so its outputs can be read.
struct RouteRun {
  test::DeviceBuffer<numerics::Int8CrossTerms> terms;  // the groups' terms, then their total
  test::DeviceBuffer<std::uint32_t> path_word{std::vector<std::uint32_t>{0u}};
  test::DeviceBuffer<cuda::RouteState> state{std::vector<cuda::RouteState>(1)};

  RouteRun(const PanelSums& a, const PanelSums& b, index_t depth)
      : terms(static_cast<std::size_t>(cuda::int8_cross_groups(depth)) + 1) {
    test::cuda_ok(cudaMemset(terms.get(), 0x55, terms.size() * sizeof(numerics::Int8CrossTerms)), "memset");
    cuda::launch_int8_route(a.op, b.op, depth, terms.get(), state.get(), path_word.get(), nullptr);
    test::cuda_ok(cudaDeviceSynchronize(), "the route");
  }
  numerics::Int8CrossTerms total() { return terms.download().back(); }
  bool took_digits() { return (path_word.download()[0] & cuda::path_int8_digits) != 0; }
};

// The cross kernel's and the route's sums are the host's, bit for bit
// (numerics/int8_cross_rule.hpp's order: a sum in another order differs in
// its last bits on such values), and so is the verdict: more row panels than
// lanes and fewer, more groups of depth than lanes, either verdict.
TEST(CudaNormwiseFP32, TheCrossKernelSumsInTheHostsOrder) {
  EGEMM_REQUIRE_GPU();
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(::testing::Message() << "seed " << seed);
  std::mt19937_64 gen(seed);
  const index_t depth = 36 * numerics::int8_cross_lanes;  // 36 groups
  struct Shape {
    index_t rows_a, rows_b;
    double weight_scale;  // tiny: the digits hold; large: they do not
    bool holds;
  };
  for (const Shape s : {Shape{70 * 32 - 5, 3 * 32, 0x1p-40, true}, Shape{17, 40 * 32 + 1, 0x1p10, false}}) {
    SCOPED_TRACE(::testing::Message() << s.rows_a << " x " << s.rows_b);
    PanelSums a(s.rows_a, depth, s.weight_scale, gen), b(s.rows_b, depth, s.weight_scale, gen);
    RouteRun route(a, b, depth);
    const numerics::Int8CrossTerms got = route.total();
    const numerics::Int8CrossTerms want = int8_cross_terms_of_panels(a.host, b.host, depth);
    EXPECT_EQ(test::bits_of(got.digits), test::bits_of(want.digits)) << got.digits << " against " << want.digits;
    EXPECT_EQ(test::bits_of(got.fp32), test::bits_of(want.fp32)) << got.fp32 << " against " << want.fp32;
    EXPECT_EQ(test::bits_of(got.pairs), test::bits_of(want.pairs)) << got.pairs << " against " << want.pairs;
    ASSERT_EQ(numerics::int8_digits_hold_product(want, s.rows_a, s.rows_b), s.holds)
        << "the case should decide the other way: it would not test both verdicts";
    EXPECT_EQ(route.took_digits(), s.holds);
  }
}

// The route kernel's blocks (a thread a row) count the rows carrying the
// norm, and its last block decides from the sum of every block's counts:
// rows of op(A) carrying it spread over all three blocks, one row of
// op(B)^T, so that the entries rule holds at exactly 64 such rows and fails
// at 63 (the other rules hold: small column sums, every row's weight 2^24;
// the other rows' masses 2^-10 of the largest, below its quarter).
TEST(CudaNormwiseFP32, TheRouteCountsRowsCarryingTheNormOverItsBlocks) {
  EGEMM_REQUIRE_GPU();
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(::testing::Message() << "seed " << seed);
  std::mt19937_64 gen(seed);
  const index_t depth = 4 * numerics::int8_cross_lanes, rows_a = 3 * 1024 - 7, rows_b = 50;
  ASSERT_EQ(numerics::int8_min_norm_entries, 64) << "the case counts on the rule's 64 entries";
  for (const int carrying : {64, 63}) {
    SCOPED_TRACE(::testing::Message() << carrying << " rows of op(A) carry the norm");
    PanelSums a(rows_a, depth, 0x1p-40, gen), b(rows_b, depth, 0x1p-40, gen);
    std::vector<int> exponent_a(static_cast<std::size_t>(rows_a), -10), exponent_b(static_cast<std::size_t>(rows_b), -10);
    std::uniform_int_distribution<index_t> any_row(0, rows_a - 1);
    for (int placed = 0; placed < carrying;) {  // distinct rows, one in each block at least
      const index_t row = placed < 3 ? placed * 1024 + 3 : any_row(gen);
      if (exponent_a[static_cast<std::size_t>(row)] == 0) continue;
      exponent_a[static_cast<std::size_t>(row)] = 0;
      ++placed;
    }
    exponent_b[17] = 0;
    a.row_exponent.upload(exponent_a);
    b.row_exponent.upload(exponent_b);
    RouteRun route(a, b, depth);
    const cuda::RouteState got = route.state.download()[0];
    EXPECT_EQ(got.spread, 0u);
    EXPECT_EQ(got.rows_carrying[0], static_cast<std::uint32_t>(carrying));
    EXPECT_EQ(got.rows_carrying[1], 1u);
    EXPECT_EQ(got.blocks_done, 3u);
    ASSERT_TRUE(numerics::int8_digits_hold_product(int8_cross_terms_of_panels(a.host, b.host, depth), rows_a, rows_b))
        << "the cross rule should hold: only the entries rule may decide";
    EXPECT_EQ(route.took_digits(), carrying >= 64);
  }
}

}  // namespace
}  // namespace egemm
