#include "backends/cuda/dependent_launch.hpp"

#include "backends/cuda/device_facts.hpp"

namespace egemm::cuda {

bool dependent_launch_supported() { return device_facts().major >= 9; }

}  // namespace egemm::cuda
