// Module B of link-wrapper.test: calls A's device functions through their
// public symbols, compiled without ptxcc (or with it: they are declarations
// here, so nothing changes).
struct Vec3 {
  float x, y, z;
};
__attribute__((device)) float dot(Vec3 a, Vec3 b);
__attribute__((device)) Vec3 scale(Vec3 a, float k);
__attribute__((global)) void other(Vec3 a, Vec3 b, float *out) {
  Vec3 c = scale(b, 0.5f);
  out[__nvvm_read_ptx_sreg_tid_x()] = dot(a, c);
}
