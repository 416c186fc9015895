// Kernels for test/harness/sabotage.test: each gives one mutation of
// ptxcc's output a place to happen. (-nocudainc: attributes spelled out.)
#define GLOBAL __attribute__((global))
#define DEVICE __attribute__((device))

struct S {
  double f;
  int a[6];
};

// Field reads at constant offsets (the "wrong offset" mutation).
GLOBAL void fields(int *out, S s) {
  int t = __nvvm_read_ptx_sreg_tid_x();
  out[t] = s.a[1] + s.a[4] * 3;
}

// A written struct: a local copy (the "dropped store of a copy" mutation),
// written in a loop at an index no unrolling makes constant, so that
// promote-local-arrays keeps it in memory.
GLOBAL void written(int *out, S s, int i) {
  int t = __nvvm_read_ptx_sreg_tid_x();
  for (int k = 0; k < (i & 3); k++)
    s.a[(i + k) & 3] += t;
  out[t] = s.a[0] + s.a[1] + s.a[2] + s.a[3] + s.a[4] + s.a[5];
}

// A written struct whose copy promote-local-arrays keeps in registers, its
// two dynamic accesses as selects (the "swapped select" mutation).
GLOBAL void selected(int *out, S s, int i) {
  int t = __nvvm_read_ptx_sreg_tid_x();
  s.a[i & 3] = t;
  out[t] = s.a[(i + t) & 3] + s.a[5];
}

// Escapes to a reader: cast-only, a grid constant (the "write through a
// grid constant" mutation).
static __attribute__((noinline)) DEVICE int sum(const S *s) { return s->a[0] + s->a[5]; }
GLOBAL void escaped(int *out, S s) { out[__nvvm_read_ptx_sreg_tid_x()] = sum(&s); }

// A small struct flattened into a device function's parameters (the
// "swapped arguments" mutation). Three fields of two types: one .param
// each is no more st.param than the struct's own .param (no .v2 across
// types), so it is flattened.
struct P {
  float x;
  int k;
  float y;
};
static __attribute__((noinline)) DEVICE float minus(P p) { return p.x - 2.0f * p.y + p.k; }
GLOBAL void flattened(float *out, P p) { out[__nvvm_read_ptx_sreg_tid_x()] = minus(p); }

// A local array next to a global pointer (the "cast into the wrong space"
// mutation).
GLOBAL void spaces(int *out, int i) {
  int local[8];
  int t = __nvvm_read_ptx_sreg_tid_x();
  for (int k = 0; k < 8; ++k)
    local[k] = out[k] + t;
  out[t] = local[(i + t) & 7];
}
