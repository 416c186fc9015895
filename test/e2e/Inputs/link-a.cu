// Module A of link-wrapper.test: defines the device functions (not static:
// other modules may call them) and a kernel of its own that calls them.
struct Vec3 {
  float x, y, z;
};
__attribute__((device, noinline)) float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__attribute__((device, noinline)) Vec3 scale(Vec3 a, float k) { return Vec3{a.x * k, a.y * k, a.z * k}; }
__attribute__((global)) void own(Vec3 a, Vec3 b, float *out) {
  out[__nvvm_read_ptx_sreg_tid_x()] = dot(scale(a, 2.0f), b);
}
