// Included (nvcc -include) before a CUDA file written for clang without
// CUDA's headers (clang -nocudainc, as the e2e tests are): clang's NVVM
// builtins spelled as what nvcc knows. scripts/compare.py compiles the same
// source with nvcc through it.
#pragma once
#define __nvvm_read_ptx_sreg_tid_x() (threadIdx.x)
#define __nvvm_read_ptx_sreg_ctaid_x() (blockIdx.x)
#define __nvvm_read_ptx_sreg_ntid_x() (blockDim.x)
#define __nvvm_bar_sync(n) __syncthreads()
#define __nvvm_atom_add_gen_f(p, v) atomicAdd((p), (v))
#define __nvvm_atom_max_gen_ui(p, v) atomicMax((p), (v))
// GCC's atomic builtins at relaxed order (what the e2e tests use) as CUDA's
// atomic functions, in device code only (host headers use the builtins).
#ifdef __CUDA_ARCH__
template <class T> __device__ bool ptxcc_compat_cas(T *p, T *expected, T desired) {
  T old = atomicCAS(p, *expected, desired);
  bool swapped = old == *expected;
  *expected = old;
  return swapped;
}
#define __atomic_compare_exchange_n(p, e, d, weak, success, failure) ptxcc_compat_cas((p), (e), (d))
#define __atomic_fetch_add(p, v, order) atomicAdd((p), (v))
#define __atomic_fetch_min(p, v, order) atomicMin((p), (v))
#define __atomic_fetch_max(p, v, order) atomicMax((p), (v))
#endif
