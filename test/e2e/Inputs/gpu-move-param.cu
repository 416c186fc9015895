// A probe for scripts/gpu_diff.py (not a lit test: Inputs is excluded):
// device functions that WRITE their own by-value struct parameter, the
// shape in which LLVM's NVPTX back end emits the "move param" pattern at
// -O0,
//     mov.b64 %rd1, f_param_0;   st.local/ld.local [%rd1]
// which the PTX ISA defines as a copy of the parameter in local memory and
// its local address. The first GPU run found llc's and ptxcc's PTX giving
// different results in three kernels of this shape (device-calls-external
// bump_one, device-calls-write scaler, device-calls seed1); each kernel
// here isolates one size:
//   vec3    12 bytes { float x, y, z }, a field written at a constant place
//   mat16   64 bytes float[16], an element written at a constant place
//   mixed   16 bytes { int a; double b }, the double written
//   dyn16   64 bytes float[16], an element written at a thread-dependent place
// The second GPU run found all four right in every flavour, so the next
// four add, one each, what the three failing kernels have and these lack:
//   visible_vec3    bump's callee exactly (bump_one): not static, so a
//                   .visible .func whose Vec3 .param is aligned to 4 (the
//                   static ones' are aligned to 16), called with d = 1
//   mat_then_call   scale's shape (scaler): two elements of a float[4][4]
//                   multiplied in place, then the whole matrix passed BY
//                   VALUE to another noinline function (determinant's
//                   formula)
//   vec3_then_call  vec3's callee, but the written Vec3 then passed by value
//                   to another noinline function that does vec3's sum
//   vec3_call_ret   normalize's shape (seed1): the Vec3 passed by value to
//                   another noinline function (length) BEFORE it is
//                   written, its three fields divided by that call's result
//                   after it, and the written Vec3 RETURNED by value (a
//                   12-byte func_retval0); the kernel then calls length on
//                   its own Vec3 again
// Each callee writes one field or more, then returns a combination of all
// fields with distinct weights (every field shows in the result); each
// kernel writes the result to out[tid]. gpu_diff.py prepare compiles it at
// -O0 (with -disable-O0-optnone) and -O2 like any other input.
//
// Expected results, with the kernel's argument bytes A (the spec's "init")
// and t = blockIdx.x * blockDim.x + threadIdx.x:
//   vec3:  A.x + 2 * t + 4 * A.z                  (y := t)
//   mat16: sum_i (i + 1) * m[i], m[5] := t
//   mixed: A.a + 3 * (0.5 * t)                    (b := 0.5 * t)
//   dyn16: sum_i (i + 1) * m[i], m[t & 15] := -t
//   visible_vec3:   (A.x + 1) * (A.y * 1) + A.z
//   mat_then_call:  with s = 0.5 * (t & 7): (A.m[0][0] * s) * (A.m[1][1] * s)
//                   - A.m[0][1] * A.m[1][0]
//   vec3_then_call: A.x + 2 * t + 4 * A.z         (y := t, as vec3)
//   vec3_call_ret:  with l = sqrt(A.x^2 + A.y^2 + A.z^2) (float):
//                   ((l + A.x / l) + A.y / l) + A.z / l
// Every one but vec3_call_ret is exact in float (the inputs are small
// values with few significant bits), so a*b+c contracted into an fma or
// not gives the same bits; vec3_call_ret's sqrt.rn and div.rn are
// correctly rounded and its sums are adds only (its squares are exact),
// so gpu_diff.py computes its bits exactly too (in double, rounded to
// float after each operation: exact for +, -, *, / and sqrt).
// (-nocudainc: no CUDA headers, so __global__, __device__ and __noinline__
// are spelled as their attributes.)

struct Vec3 { float x, y, z; };
struct Mat16 { float m[16]; };
struct Mixed { int a; double b; };
struct Mat44 { float m[4][4]; };  // device-calls-write.cu's Matrix4x4

#define DEVICE static __attribute__((device)) __attribute__((noinline))
#define GLOBAL __attribute__((global))
// Not static: externally visible (device-calls-external.cu's functions).
#define VISIBLE_DEVICE __attribute__((device)) __attribute__((noinline))

static __attribute__((device)) __attribute__((always_inline)) unsigned thread_index() {
  return __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x();
}

DEVICE float vec3_write(Vec3 v, float s) {
  v.y = s;
  return v.x + 2.0f * v.y + 4.0f * v.z;
}

DEVICE float mat16_write(Mat16 a, float s) {
  a.m[5] = s;
  float sum = 0.0f;
  for (int i = 0; i < 16; ++i)
    sum += (float)(i + 1) * a.m[i];
  return sum;
}

DEVICE double mixed_write(Mixed p, double s) {
  p.b = s;
  return (double)p.a + 3.0 * p.b;
}

DEVICE float dyn16_write(Mat16 a, int i, float s) {
  a.m[i & 15] = s;
  float sum = 0.0f;
  for (int k = 0; k < 16; ++k)
    sum += (float)(k + 1) * a.m[k];
  return sum;
}

GLOBAL void vec3(Vec3 v, float *out) {
  unsigned t = thread_index();
  out[t] = vec3_write(v, (float)t);
}

GLOBAL void mat16(Mat16 a, float *out) {
  unsigned t = thread_index();
  out[t] = mat16_write(a, (float)t);
}

GLOBAL void mixed(Mixed p, double *out) {
  unsigned t = thread_index();
  out[t] = mixed_write(p, 0.5 * t);
}

GLOBAL void dyn16(Mat16 a, float *out) {
  unsigned t = thread_index();
  out[t] = dyn16_write(a, (int)t, -(float)t);
}

// bump (device-calls-external.cu), exactly.
VISIBLE_DEVICE float visible_bump(Vec3 v, float d) {
  v.x += d;
  v.y *= d;
  return v.x * v.y + v.z;
}

GLOBAL void visible_vec3(Vec3 v, float *out) {
  unsigned t = thread_index();
  out[t] = visible_bump(v, 1.0f);
}

// determinant and scale (device-calls-write.cu), s from the thread.
DEVICE float mat44_det(Mat44 mat) {
  return mat.m[0][0] * mat.m[1][1] - mat.m[0][1] * mat.m[1][0];
}

DEVICE float mat44_scale(Mat44 mat, float s) {
  mat.m[0][0] *= s;
  mat.m[1][1] *= s;
  return mat44_det(mat);
}

GLOBAL void mat_then_call(Mat44 mat, float *out) {
  unsigned t = thread_index();
  out[t] = mat44_scale(mat, 0.5f * (float)(t & 7));
}

// vec3_write, the sum done by another function given the written Vec3.
DEVICE float vec3_sum(Vec3 v) {
  return v.x + 2.0f * v.y + 4.0f * v.z;
}

DEVICE float vec3_write_call(Vec3 v, float s) {
  v.y = s;
  return vec3_sum(v);
}

GLOBAL void vec3_then_call(Vec3 v, float *out) {
  unsigned t = thread_index();
  out[t] = vec3_write_call(v, (float)t);
}

// length and normalize (device-calls.cu), and seed1's use of them.
DEVICE float vec3_length(Vec3 v) { return __builtin_sqrtf(v.x * v.x + v.y * v.y + v.z * v.z); }

DEVICE Vec3 vec3_normalize(Vec3 v) {
  float len = vec3_length(v);
  v.x /= len;
  v.y /= len;
  v.z /= len;
  return v;
}

GLOBAL void vec3_call_ret(Vec3 v, float *out) {
  unsigned t = thread_index();
  Vec3 n = vec3_normalize(v);
  out[t] = vec3_length(v) + n.x + n.y + n.z;
}
