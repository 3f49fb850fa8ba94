// KokkosBlas::gemm overloads that take an EGEMM precision tag:
//
//   KokkosBlas::gemm(space, egemm::EmulatedFP32{}, "N", "T", alpha, A, B, beta, C);
//   KokkosBlas::gemm(egemm::EmulatedFP32{}, "N", "T", alpha, A, B, beta, C);  // C's default space
//
// Same arguments and meaning as Kokkos Kernels' gemm, plus the tag after the
// space. Rank-2 float Views (double Views with egemm::EmulatedFP64); any mix of LayoutLeft / LayoutRight (no copies:
// row-major operands are used through the transpose identity) and
// LayoutStride with a unit stride. On Kokkos::Cuda (CudaSpace, CudaUVMSpace or
// CudaHostPinnedSpace Views) the work is enqueued on space.cuda_stream() and
// nothing is fenced; host spaces run the host fallback. NativeFP32 forwards
// to the stock gemm after EGEMM's checks (cuBLAS SGEMM through EGEMM's backend
// where EGEMM_KOKKOS_GEMM_TPL has made the stock gemm EGEMM). Works with
// Kokkos Kernels 3.x and 4.x.
#pragma once

#include <KokkosBlas3_gemm.hpp>
#include <Kokkos_Core.hpp>

#include <string>
#include <tuple>

#include "egemm/kokkos/caller.hpp"
#include "egemm/kokkos/execution.hpp"
#include "egemm/kokkos/view_operand.hpp"
#include "egemm/policy.hpp"

namespace egemm::kokkos {

#if defined(EGEMM_KOKKOS_GEMM_TPL)
inline constexpr bool routes_stock_gemm = true;  // see KokkosBlas3_gemm_tpl_spec_avail_egemm.hpp
#else
inline constexpr bool routes_stock_gemm = false;
#endif

inline char trans_char(const char* t, const char* name) {
  if (t == nullptr || t[0] == '\0')
    throw invalid_argument(std::string(caller) + ": " + name + " is null or empty");
  return t[0];
}
inline bool is_transposed(char t) { return !(t == 'N' || t == 'n'); }
inline char op_char(bool transposed) { return transposed ? 'T' : 'N'; }

// The call on the Views' storage as validated column-major arguments (no
// copies): a row-major C through the transpose identity, errors naming the
// user's Views either way.
template <class T, class AView, class BView, class CView>
GemmArgsT<T> column_major_args(bool t_a, bool t_b, index_t m, index_t n, index_t k, T alpha, const AView& A,
                               const BView& B, T beta, const CView& C) {
  const bool reads_operands = alpha != T(0) && k > 0 && m > 0 && n > 0;  // as BLAS: not when alpha == 0
  require_data(A, "A", reads_operands);
  require_data(B, "B", reads_operands);
  require_data(C, "C", m > 0 && n > 0);
  const ColumnMajorOperand<T> a = column_major<AView, T>(A, "A"), b = column_major<BView, T>(B, "B"),
                              c = column_major<CView, T>(C, "C");
  if (!c.stored_transposed) {
    // C = alpha op(A) op(B) + beta C, operands as stored.
    return make_gemm_args(caller, op_char(t_a != a.stored_transposed), op_char(t_b != b.stored_transposed), m, n, k,
                          alpha, a.data, a.ld, b.data, b.ld, beta, c.data, c.ld, {"A", "B"});
  }
  // Row-major C: C^T = alpha op(B)^T op(A)^T + beta C^T, and C's storage is column-major C^T.
  return make_gemm_args(caller, op_char(!t_b != b.stored_transposed), op_char(!t_a != a.stored_transposed), n, m, k,
                        alpha, b.data, b.ld, a.data, a.ld, beta, c.data, c.ld, {"B", "A"});
}

template <class ExecutionSpace, class Policy, class AView, class BView, class CView>
void gemm(const ExecutionSpace& space, Policy, const char trans_a[], const char trans_b[],
          typename policy_traits<Policy>::value_type alpha, const AView& A, const BView& B,
          typename policy_traits<Policy>::value_type beta, const CView& C) {
  using T = typename policy_traits<Policy>::value_type;  // float, or double for EmulatedFP64
  check_view_type<AView, T>();
  check_view_type<BView, T>();
  check_view_type<CView, T>();
  static_assert(!std::is_const_v<typename CView::value_type>,
                "C must be a View of non-const float (of non-const double with EmulatedFP64)");
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, typename AView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecutionSpace, typename BView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecutionSpace, typename CView::memory_space>::accessible,
                "the execution space cannot access the Views' memory space");

  const char ta = trans_char(trans_a, "transA"), tb = trans_char(trans_b, "transB");
  // Reject bad characters here too: the shapes below depend on them.
  make_gemm_args(caller, ta, tb, 0, 0, 0, T(0), static_cast<const T*>(nullptr), 1, static_cast<const T*>(nullptr), 1, T(0),
                 static_cast<T*>(nullptr), 1);
  const bool t_a = is_transposed(ta), t_b = is_transposed(tb);
  const index_t m = static_cast<index_t>(C.extent(0)), n = static_cast<index_t>(C.extent(1));
  const index_t k = static_cast<index_t>(t_a ? A.extent(0) : A.extent(1));
  const index_t a_m = static_cast<index_t>(t_a ? A.extent(1) : A.extent(0));
  const index_t b_k = static_cast<index_t>(t_b ? B.extent(1) : B.extent(0));
  const index_t b_n = static_cast<index_t>(t_b ? B.extent(0) : B.extent(1));
  if (a_m != m || b_n != n || b_k != k)
    throw invalid_argument(std::string(caller) + ": extents do not match: op(A) is " + std::to_string(a_m) + "x" +
                           std::to_string(k) + ", op(B) is " + std::to_string(b_k) + "x" + std::to_string(b_n) +
                           ", C is " + std::to_string(m) + "x" + std::to_string(n));

  const GemmArgsT<T> args = column_major_args<T>(t_a, t_b, m, n, k, alpha, A, B, beta, C);
  // NativeFP32 is the stock gemm, except where EGEMM_KOKKOS_GEMM_TPL routes the
  // stock float gemm on Kokkos::Cuda to EGEMM: there it is cuBLAS SGEMM through
  // EGEMM's backend (below), which also keeps the routed call from recursing.
  // The stock gemm is held to the tags' contract: the checks above (null
  // Views, C overlapping an operand), and BLAS's quick returns made here
  // (Kokkos Kernels 3.4 returns on k == 0 without scaling C).
  if constexpr (std::is_same_v<Policy, NativeFP32> && !(routes_stock_gemm && is_cuda_space_v<ExecutionSpace>)) {
    if (args.empty()) return;
    if (args.only_scales_c()) return run_gemm(space, policy_traits<Policy>::id, args);
#if defined(KOKKOSKERNELS_VERSION) && KOKKOSKERNELS_VERSION >= 40000
    KokkosBlas::gemm(space, trans_a, trans_b, alpha, A, B, beta, C);
#else
    space.fence();  // Kokkos Kernels 3.x has no execution-space overload
    KokkosBlas::gemm(trans_a, trans_b, alpha, A, B, beta, C);
#endif
  } else {
    run_gemm(space, policy_traits<Policy>::id, args);
  }
}

}  // namespace egemm::kokkos

namespace KokkosBlas {

// gemm on an execution space, with an EGEMM precision tag.
template <class ExecutionSpace, class Policy, class AViewType, class BViewType, class CViewType,
          std::enable_if_t<egemm::is_policy_v<Policy> && Kokkos::is_execution_space<ExecutionSpace>::value, int> = 0>
void gemm(const ExecutionSpace& space, Policy tag, const char transA[], const char transB[],
          typename AViewType::const_value_type& alpha, const AViewType& A, const BViewType& B,
          typename CViewType::const_value_type& beta, const CViewType& C) {
  egemm::kokkos::gemm(space, tag, transA, transB, alpha, A, B, beta, C);
}

// gemm on the default instance of C's execution space, with an EGEMM precision
// tag. One overload per tag, not a template over the tag: Kokkos Kernels 4.x
// has gemm(const execution_space&, transA, transB, alpha, A, B, beta, C), which
// a template first parameter would tie with; a concrete tag type is more
// specialised, so overload resolution picks this one.
#define EGEMM_KOKKOSBLAS_GEMM_WITH_TAG(TAG)                                                                    \
  template <class AViewType, class BViewType, class CViewType>                                                \
  void gemm(egemm::TAG tag, const char transA[], const char transB[],                                         \
            typename AViewType::const_value_type& alpha, const AViewType& A, const BViewType& B,               \
            typename CViewType::const_value_type& beta, const CViewType& C) {                                  \
    egemm::kokkos::gemm(typename CViewType::execution_space{}, tag, transA, transB, alpha, A, B, beta, C);    \
  }
EGEMM_KOKKOSBLAS_GEMM_WITH_TAG(EmulatedFP32)
EGEMM_KOKKOSBLAS_GEMM_WITH_TAG(RoundSplit4)
EGEMM_KOKKOSBLAS_GEMM_WITH_TAG(TruncateSplit4)
EGEMM_KOKKOSBLAS_GEMM_WITH_TAG(Half)
EGEMM_KOKKOSBLAS_GEMM_WITH_TAG(NativeFP32)
EGEMM_KOKKOSBLAS_GEMM_WITH_TAG(FullRangeTF32x3)
EGEMM_KOKKOSBLAS_GEMM_WITH_TAG(Int8Slices)
EGEMM_KOKKOSBLAS_GEMM_WITH_TAG(NormwiseFP32)
EGEMM_KOKKOSBLAS_GEMM_WITH_TAG(EmulatedFP64)
#undef EGEMM_KOKKOSBLAS_GEMM_WITH_TAG
static_assert(std::tuple_size_v<egemm::all_policies> == 8,
              "a tag was added to egemm::all_policies: add its KokkosBlas::gemm overload above");
static_assert(std::tuple_size_v<egemm::all_fp64_policies> == 1,
              "a tag was added to egemm::all_fp64_policies: add its KokkosBlas::gemm overload above");

}  // namespace KokkosBlas
