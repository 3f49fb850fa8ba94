// How far the tensor core's own (truncating) accumulation runs before a
// folded product term joins its FP32 accumulator with one RN add. Plain C++:
// the tests' a-priori error bound reads these too.
#pragma once

namespace egemm::cuda {

// The mma.sync kernel folds every k-step of 16 (one FP16 mma, two TF32 ones):
// the host oracle's k_step.
inline constexpr int fold_k = 16;
// The sm_90a wgmma kernel folds once per 64 values of k (one FP16 k-tile:
// four m64nNk16 wgmmas chained in the tensor core; two TF32 k-tiles of 32):
// a fold per wgmma would stall the tensor core on every 16 values of k.
inline constexpr int wgmma_fold_k = 64;
// Every fold length a build may run, for error bounds that hold whichever runs.
inline constexpr int fold_lengths[] = {fold_k, wgmma_fold_k};

}  // namespace egemm::cuda
