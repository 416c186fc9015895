// Regression kernels of issue 40, each named after what it caught. Every
// one has a per-thread array promote-local-arrays promotes (the test checks
// the remarks) and runs under the differential harness at -O1, -O2 and -O3.
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
static __device__ unsigned tid() { return __nvvm_read_ptx_sreg_tid_x(); }

// A cleared array of structs with padding, one field written in a loop,
// copied out whole: the memset's stores must write the padding bytes too.
struct S { char c; int i; };
struct A { S s[4]; };
__global__ void memset_padding(const int *in, A *out) {
  A a = {};
#pragma unroll 1
  for (int j = 0; j < 4; j++) a.s[j].c = (char)in[j];
  out[tid()] = a;
}

// The same with a 0xFF fill (every byte of the padding must be 0xFF).
__global__ void memset_ff_padding(const int *in, A *out) {
  A a;
  __builtin_memset(&a, 0xFF, sizeof a);
#pragma unroll 1
  for (int j = 0; j < 4; j++) a.s[j].c = (char)in[j];
  out[tid()] = a;
}

// An __int128 counter from -4 to 3: its constants are built at 128 bits
// (-4 was 2^64 - 4), and c >> 64 is computed at 128 bits.
__global__ void int128_counter(const int *in, long long *out) {
  int a[8];
#pragma unroll 1
  for (__int128 c = -4; c < 4; c++) a[(int)c + 4] = in[(int)c + 4] + (int)(c >> 64);
  long long s = 0;
#pragma unroll 1
  for (__int128 c = -4; c < 4; c++) s = s * 3 + a[(int)c + 4] + (long long)(c >> 64);
  out[tid()] = s;
}

// A hash-indexed table: the index is a chain whose values are used two or
// three times each (an exponential tree walk hung for minutes).
__global__ void hash_index(const int *in, int *out, unsigned seed) {
  int table[16];
  for (int i = 0; i < 16; i++) table[i] = in[i];
  unsigned x = seed + 1;
  for (int r = 0; r < 20; r++) x ^= (x << 3) ^ (x >> 5);
  table[x & 15] += 1;
  for (int i = 0; i < 16; i++) out[tid() * 16 + i] = table[i];
}

// An if inside a counted loop whose value the latch merges, inside an outer
// loop (the unroller copied the blocks in region order: invalid IR).
__global__ void side_block_latch(const float *in, float *out, int n) {
  float acc[8];
  for (int k = 0; k < 8; k++) acc[k] = 0.f;
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 8; k++) {
      float v = in[i * 8 + k];
      if (v > 4.f) v = v * 0.5f;
      acc[k] += v;
    }
  }
  for (int k = 0; k < 8; k++) out[tid() * 8 + k] = acc[k];
}

// A loop with a break: each unrolled copy keeps its branch out.
__global__ void early_exit(const int *in, int *out) {
  int a[8] = {};
#pragma unroll 1
  for (int k = 0; k < 8; k++) {
    if (in[k] == 13) break;
    a[k] = in[k] * 2;
  }
  for (int k = 0; k < 8; k++) out[tid() * 8 + k] = a[k];
}

// A value the outer loop's latch computes from an inner loop's result (`s
// ^= seed` after the inner reduction), both loops unrolled: clang lays the
// outer latch out before the inner loop's blocks, and each copy of the
// latch read the first copy's inner result. The stale value dominated its
// uses, so the IR verified: a wrong result with no error (found by
// test/fuzz/fuzz_cuda.py, seeds 1, 2, 3 and 21).
struct E { int e[8]; };
__global__ void value_after_inner(E *out, unsigned *res, const unsigned *in) {
  unsigned g = tid();
  unsigned seed = in[g];
  E a = {};
  unsigned s = 1u;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 8; ++j)
      s += (unsigned)a.e[j];
    s ^= seed;
    a.e[i] = 0;
  }
  out[g] = a;
  res[g] = s;
}

// An __int128 counter far from 0 (2^64 .. 2^64 + 3) whose high bits the
// body reads: with its constants cut to 64 bits, each unrolled copy's
// `i >> 64` was 0, not 1 (found by test/fuzz/fuzz_cuda.py).
struct F { int e[4]; };
__global__ void int128_high_bits(F *out, const unsigned *in) {
  F a = {};
#pragma unroll 1
  for (__int128 i = (__int128)1 << 64; i < ((__int128)1 << 64) + 4; ++i)
    a.e[(int)(i & 3)] = (int)(i >> 64) + (int)in[(int)(i & 3)];
  out[tid()] = a;
}
