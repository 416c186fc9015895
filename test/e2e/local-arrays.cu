// (-nocudainc: no CUDA headers, so __global__ is spelled as its attribute.)
// Per-thread arrays indexed by the counters of loops with a constant trip
// count (issue 31): LLVM's -O2 leaves these loops rolled when their bodies
// look expensive, the arrays stay in .local, and NVIDIA's compiler keeps
// them in registers. promote-local-arrays unrolls the loops and llc's SROA
// promotes the arrays: no __local_depot, no ld/st.local. The histogram's
// index is data, so it stays in local memory (as with nvcc).
// Differential execution (diffexec.test) runs these kernels too, and
// compare.test measures them against llc alone and nvcc.
// RUN: %clang-cuda -O2 -S -emit-llvm %s -o %t.ll
// RUN: %ptxcc-opt %t.ll --ptxcc-pipeline --emit=ptx | %ptxas-check | FileCheck %s
// RUN: %llc-sm90 %t.ll -o - | FileCheck %s --check-prefix=LLC
// The pass alone says what it decided, at each array.
// RUN: %ptxcc-opt %t.ll --pass-pipeline='builtin.module(llvm.func(promote-local-arrays{promote-remarks=true}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// Without it (promote-local=false) ptxcc keeps what llc keeps.
// RUN: %ptxcc-opt %t.ll --ptxcc-pipeline=promote-local=false --emit=ptx | FileCheck %s --check-prefix=LLC

#define GLOBAL __attribute__((global))
#define DEVICE __attribute__((device))

// llm.c's x128 of bf16: eight 16-bit elements in 16 bytes.
struct alignas(16) PackedBF16 {
  unsigned short payload[8];
};

DEVICE float bf16_to_float(unsigned short h) { return __builtin_bit_cast(float, (unsigned)h << 16); }
DEVICE unsigned short float_to_bf16(float f) { return (unsigned short)(__builtin_bit_cast(unsigned, f) >> 16); }

// A rational tanh, expensive enough that LLVM's -O2 keeps the loop rolled.
DEVICE float tanh_rational(float x) {
  float x2 = x * x;
  float p = x * (135135.0f + x2 * (17325.0f + x2 * (378.0f + x2)));
  float q = 135135.0f + x2 * (62370.0f + x2 * (3150.0f + 28.0f * x2));
  float t = p / q;
  return t > 1.0f ? 1.0f : (t < -1.0f ? -1.0f : t);
}

// llm.c's gelu_forward_kernel2 shape.
// CHECK-LABEL: .entry _Z9gelu_bf16P10PackedBF16PKS_i(
// CHECK-NOT: __local_depot
// CHECK-NOT: .local
// CHECK: ret;
// LLC-LABEL: .entry _Z9gelu_bf16P10PackedBF16PKS_i(
// LLC: .local .align 16 .b8 __local_depot{{[0-9]+}}[32];
// (clang unrolled the loop by two: four iterations are left.)
// REMARK: remark: promoted to registers: 16 bytes; loops unrolled with 4 iterations
// REMARK-NEXT: remark: promoted to registers: 16 bytes; loops unrolled with 4 iterations
GLOBAL void gelu_bf16(PackedBF16 *out, const PackedBF16 *inp, int n) {
  int i = __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x();
  if (i < n) {
    PackedBF16 packed_out;
    PackedBF16 packed_inp = inp[i];
    for (int k = 0; k < 8; ++k) {
      float xi = bf16_to_float(packed_inp.payload[k]);
      float cube = 0.044715f * xi * xi * xi;
      packed_out.payload[k] = float_to_bf16(0.5f * xi * (1.0f + tanh_rational(0.7978845608f * (xi + cube))));
    }
    out[i] = packed_out;
  }
}

// An 8x8 register tile (llm.c's matmul_forward_kernel4 shape): the
// accumulators start as a 256-byte memset, which llc would make a loop.
// CHECK-LABEL: .entry _Z11matmul_tilePfPKfS1_i(
// CHECK-NOT: __local_depot
// CHECK-NOT: .local
// CHECK: ret;
// LLC-LABEL: .entry _Z11matmul_tilePfPKfS1_i(
// LLC: .local .align 4 .b8 __local_depot{{[0-9]+}}[288];
// REMARK-NEXT: remark: promoted to registers: 256 bytes; loops unrolled with 8, 8 iterations
// REMARK-NEXT: remark: promoted to registers: 32 bytes; loops unrolled with 8 iterations
GLOBAL void matmul_tile(float *out, const float *a, const float *b, int n) {
  int row = (__nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x()) * 8;
  float vals[8][8] = {};
  for (int k = 0; k < n; k++) {
    float av[8], bv[8];
    for (int i = 0; i < 8; i++) av[i] = a[(row + i) * n + k];
    for (int j = 0; j < 8; j++) bv[j] = b[k * n + j];
    for (int i = 0; i < 8; i++)
      for (int j = 0; j < 8; j++)
        vals[i][j] = __builtin_fmaf(av[i], bv[j], vals[i][j]);
  }
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++)
      out[(row + i) * 8 + j] = vals[i][j];
}

// A per-thread histogram: indexed by data, it stays in local memory.
// CHECK-LABEL: .entry _Z15local_histogramPjPKji(
// CHECK: .local .align 4 .b8 __local_depot{{[0-9]+}}[64];
// REMARK-NEXT: remark: kept in local memory: an index is computed by 'llvm.load', not by counted loops
GLOBAL void local_histogram(unsigned *out, const unsigned *data, int n) {
  unsigned hist[16] = {};
  for (int i = __nvvm_read_ptx_sreg_tid_x(); i < n; i += __nvvm_read_ptx_sreg_ntid_x())
    hist[data[i] & 15]++;
  for (int j = 0; j < 16; j++)
    __nvvm_atom_add_gen_i((int *)&out[j], hist[j]);
}

// A running prefix over a window: each element depends on the one before,
// and the last is read after the loop.
// CHECK-LABEL: .entry _Z6prefixPfPKf(
// CHECK-NOT: __local_depot
// CHECK: ret;
// REMARK-NEXT: remark: promoted to registers: 48 bytes; loops unrolled with 11 iterations
GLOBAL void prefix(float *out, const float *in) {
  int t = __nvvm_read_ptx_sreg_tid_x();
  float window[12];
  window[0] = in[t];
  for (int k = 1; k < 12; k++)
    window[k] = window[k - 1] * 0.5f + tanh_rational(in[t + k]);
  float sum = 0.0f;
  for (int k = 11; k >= 0; k -= 3)
    sum += window[k];
  out[t] = sum + window[11];
}
