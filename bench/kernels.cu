// Template for the ptxcc compile-time benchmark (bench/generate.py).
//
// Realistic CUDA device code exercising what ptxcc lowers: byval struct
// kernel parameters (read only, address escaping to a read-only callee,
// written), small structs passed to and returned from __noinline__ device
// functions, large (> 16 bytes) struct results, dynamically indexed local
// arrays, plain pointer kernels, atomics and loops over pointers.
//
// No CUDA headers: compiled with
//   clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -nocudainc
//         -nocudalib -Xclang -target-feature -Xclang +ptx80 -O2 -S -emit-llvm
// so every CUDA keyword is spelled as its attribute here.

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __constant__ __attribute__((constant))
#define __noinline__ __attribute__((noinline))
#define DEVICE static __device__ __noinline__

typedef unsigned int uint;

static __device__ __attribute__((always_inline)) uint tid() { return __nvvm_read_ptx_sreg_tid_x(); }
static __device__ __attribute__((always_inline)) uint gid() {
  return __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x();
}
static __device__ __attribute__((always_inline)) uint gsize() {
  return __nvvm_read_ptx_sreg_nctaid_x() * __nvvm_read_ptx_sreg_ntid_x();
}
static __device__ __attribute__((always_inline)) float atomic_add(float *p, float v) {
  return __nvvm_atom_add_gen_f(p, v);
}
#define fminf __builtin_fminf
#define fmaxf __builtin_fmaxf

// ---------------------------------------------------------------- types

struct float3_ { float x, y, z; };                 // 12 bytes
struct float2_ { float x, y; };                    //  8 bytes
struct Ray { float3_ o, d; float tmin, tmax; };    // 32 bytes
struct Mat4 { float m[4][4]; };                    // 64 bytes
struct Box { float3_ lo, hi; };                    // 24 bytes

struct Params {                                    // nested, with arrays
  int n;
  float alpha;
  float weights[8];
  struct { int lo, hi; } range;
  Box bounds;
  double scale;
};

struct Histo { int bins; float lo, hi; int counts[16]; };

// ---------------------------------------------------------------- globals

__device__ float g_bias[4] = {0.5f, 0.25f, 0.125f, 0.0625f};
__constant__ float c_coeffs[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__device__ int g_counter;

// ---------------------------------------------------------------- small-struct device functions

DEVICE float dot3(float3_ a, float3_ b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

DEVICE float3_ cross3(float3_ a, float3_ b) {
  return float3_{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

DEVICE float3_ add3(float3_ a, float3_ b) { return float3_{a.x + b.x, a.y + b.y, a.z + b.z}; }

DEVICE float3_ scale3(float3_ a, float s) { return float3_{a.x * s, a.y * s, a.z * s}; }

DEVICE float3_ normalize3(float3_ v) {
  float inv = 1.0f / __builtin_sqrtf(dot3(v, v));
  v.x *= inv;
  v.y *= inv;
  v.z *= inv;
  return v;
}

DEVICE float2_ rot2(float2_ p, float c, float s) { return float2_{c * p.x - s * p.y, s * p.x + c * p.y}; }

DEVICE float3_ ray_at(Ray r, float t) { return add3(r.o, scale3(r.d, t)); }   // 32-byte byval

DEVICE bool hit_box(Ray r, Box b) {
  float t0 = r.tmin, t1 = r.tmax;
  float lo[3] = {b.lo.x, b.lo.y, b.lo.z}, hi[3] = {b.hi.x, b.hi.y, b.hi.z};
  float o[3] = {r.o.x, r.o.y, r.o.z}, d[3] = {r.d.x, r.d.y, r.d.z};
  for (int i = 0; i < 3; ++i) {
    float inv = 1.0f / d[i];
    float a = (lo[i] - o[i]) * inv, c = (hi[i] - o[i]) * inv;
    if (inv < 0.0f) { float t = a; a = c; c = t; }
    t0 = a > t0 ? a : t0;
    t1 = c < t1 ? c : t1;
  }
  return t0 <= t1;
}

// ---------------------------------------------------------------- large results (> 16 bytes)

DEVICE Mat4 mat_rot_z(float c, float s) {
  Mat4 r = {};
  r.m[0][0] = c; r.m[0][1] = -s;
  r.m[1][0] = s; r.m[1][1] = c;
  r.m[2][2] = 1.0f; r.m[3][3] = 1.0f;
  return r;
}

DEVICE Mat4 mat_mul(Mat4 a, Mat4 b) {
  Mat4 r;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      float s = 0.0f;
      for (int k = 0; k < 4; ++k) s += a.m[i][k] * b.m[k][j];
      r.m[i][j] = s;
    }
  return r;
}

DEVICE float3_ mat_apply(Mat4 m, float3_ v) {
  return float3_{m.m[0][0] * v.x + m.m[0][1] * v.y + m.m[0][2] * v.z + m.m[0][3],
                 m.m[1][0] * v.x + m.m[1][1] * v.y + m.m[1][2] * v.z + m.m[1][3],
                 m.m[2][0] * v.x + m.m[2][1] * v.y + m.m[2][2] * v.z + m.m[2][3]};
}

DEVICE Box box_union(Box a, Box b) {                                               // 24-byte result
  return Box{{fminf(a.lo.x, b.lo.x), fminf(a.lo.y, b.lo.y), fminf(a.lo.z, b.lo.z)},
             {fmaxf(a.hi.x, b.hi.x), fmaxf(a.hi.y, b.hi.y), fmaxf(a.hi.z, b.hi.z)}};
}

// ---------------------------------------------------------------- read-only callees of escaping byval structs

DEVICE float weighted(const Params *p, int i) {
  float s = 0.0f;
  for (int k = 0; k < 8; ++k) s += p->weights[k] * (float)(i + k);
  return s * p->alpha;
}

DEVICE int histo_total(const Histo *h) {
  int t = 0;
  for (int i = 0; i < h->bins && i < 16; ++i) t += h->counts[i];
  return t;
}

// ---------------------------------------------------------------- kernels: byval structs, read only

__global__ void params_read(const float *in, float *out, Params p) {
  uint i = gid();
  if ((int)i >= p.n || (int)i < p.range.lo || (int)i >= p.range.hi) return;
  float w = p.weights[i & 7];                                  // array in struct, dynamic index
  float x = in[i] * w + p.alpha;
  x = fminf(fmaxf(x, p.bounds.lo.x), p.bounds.hi.x);            // nested struct
  out[i] = x * (float)p.scale;
}

__global__ void ray_box(Ray r, Box b, const float *ts, int *hits, float3_ *pts, int n) {
  uint i = gid();
  if ((int)i >= n) return;
  hits[i] = hit_box(r, b) ? 1 : 0;
  pts[i] = ray_at(r, ts[i]);
}

// ---------------------------------------------------------------- kernels: byval address escapes to a reader

__global__ void params_escape(float *out, Params p) {
  uint i = gid();
  if ((int)i < p.n) out[i] = weighted(&p, (int)i);
}

__global__ void histo_escape(int *out, Histo h) {
  if (gid() == 0) *out = histo_total(&h) + h.counts[tid() & 15];
}

// ---------------------------------------------------------------- kernels: byval struct written

__global__ void params_write(float *out, Params p) {
  uint i = gid();
  p.weights[i & 7] *= 2.0f;                                    // dynamic write into the byval copy
  p.alpha += g_bias[i & 3];
  float s = 0.0f;
  for (int k = 0; k < 8; ++k) s += p.weights[k];
  out[i] = s * p.alpha;
}

__global__ void box_grow(Box *out, Box b, float3_ p) {
  b.lo.x = fminf(b.lo.x, p.x);
  b.hi.y = fmaxf(b.hi.y, p.y);
  Box pb{p, p};
  out[gid()] = box_union(b, pb);
}

// ---------------------------------------------------------------- kernels: small structs to device functions

__global__ void shade(const float3_ *n, const float3_ *l, float *out, float3_ eye, int count) {
  uint i = gid();
  if ((int)i >= count) return;
  float3_ nn = normalize3(n[i]);
  float3_ h = normalize3(add3(l[i], eye));
  float3_ t = cross3(nn, h);
  out[i] = dot3(nn, h) + 0.1f * dot3(t, t);
}

__global__ void transform(float3_ *pts, int n, float angle_c, float angle_s, Mat4 model) {
  Mat4 m = mat_mul(model, mat_rot_z(angle_c, angle_s));
  for (uint i = gid(); (int)i < n; i += gsize()) pts[i] = mat_apply(m, pts[i]);
}

__global__ void rotate2d(float2_ *pts, int n, float c, float s) {
  uint i = gid();
  if ((int)i < n) pts[i] = rot2(pts[i], c, s);
}

// ---------------------------------------------------------------- kernels: dynamically indexed local arrays

__global__ void local_sort(const int *in, int *out, int n) {
  int v[16];
  uint base = gid() * 16;
  for (int k = 0; k < 16; ++k) v[k] = (int)(base + k) < n ? in[base + k] : 0x7fffffff;
  for (int a = 1; a < 16; ++a) {                               // insertion sort: dynamic indices
    int x = v[a], b = a - 1;
    while (b >= 0 && v[b] > x) { v[b + 1] = v[b]; --b; }
    v[b + 1] = x;
  }
  for (int k = 0; k < 16; ++k) if ((int)(base + k) < n) out[base + k] = v[k];
}

__global__ void local_histo(const float *in, int n, int *bins, float lo, float hi) {
  int h[32] = {};
  for (uint i = gid(); (int)i < n; i += gsize()) {
    int b = (int)((in[i] - lo) / (hi - lo) * 32.0f);
    h[b < 0 ? 0 : (b > 31 ? 31 : b)]++;
  }
  for (int b = 0; b < 32; ++b) if (h[b]) __atomic_fetch_add(&bins[b], h[b], __ATOMIC_RELAXED);
}

// ---------------------------------------------------------------- kernels: plain pointers

__global__ void saxpy(float a, const float *x, float *y, int n) {
  uint i = gid();
  if ((int)i < n) y[i] = a * x[i] + y[i];
}

__global__ void reduce_sum(const float *x, float *sum, int n) {
  float s = 0.0f;
  for (uint i = gid(); (int)i < n; i += gsize()) s += x[i] * c_coeffs[i & 7];
  atomic_add(sum, s);
  if (tid() == 0) __atomic_fetch_add(&g_counter, 1, __ATOMIC_RELAXED);
}

__global__ void prefix_walk(float *p, const float *end, float bias) {
  float acc = bias;
  for (float *q = p + gid(); q < end; q += gsize()) {          // loop over a pointer
    acc += *q;
    *q = acc;
  }
}

__global__ void dot_kernel(const float3_ *a, const float3_ *b, float *out, int n) {
  float s = 0.0f;
  for (uint i = gid(); (int)i < n; i += gsize()) s += dot3(a[i], b[i]);
  atomic_add(out, s);
}
