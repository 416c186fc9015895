// (-nocudainc: no CUDA headers, so __global__, __device__ and __noinline__
// are spelled as their attributes.)
// lower-struct-args on kernels whose byval struct's address escapes to a
// call: a callee that only reads gets the parameter's generic address
// (cvta.param, no copy), also through a select; a callee that may write (here
// one only declared) gets a local copy, as with llc alone.
// RUN: %clang-cuda -O2 -S -emit-llvm %s -o %t.ll
// RUN: mlir-translate --import-llvm %t.ll -o %t.mlir
// RUN: %ptxcc-opt %t.mlir --ptxcc-pipeline | %to-llvmir | %llc-sm90 | FileCheck %s
// The same without the attributes clang's optimiser infers and MLIR front
// ends never emit: "only reads" then comes from sum's body.
// RUN: sed -E -e 's/ (readonly|writeonly|captures\(none\)|memory\([^)]*\)|initializes\(\([^)]*\)\))//g' %t.ll > %t.stripped.ll
// RUN: not grep -E 'readonly|captures|memory\(|initializes' %t.stripped.ll
// RUN: mlir-translate --import-llvm %t.stripped.ll -o %t.stripped.mlir
// RUN: %ptxcc-opt %t.stripped.mlir --ptxcc-pipeline | %to-llvmir | %llc-sm90 | FileCheck %s

struct S {
  double f;
  char b;
  int a[4];
};

__attribute__((device)) __attribute__((noinline)) int sum(const S *p) {
  return p->a[0] + p->a[1] + p->a[2] + p->a[3] + p->b;
}

// CHECK-LABEL: .entry _Z6readerPi1S(
// CHECK-NOT: .local
// CHECK: mov.b64 %rd[[P:[0-9]+]], _Z6readerPi1S_param_1;
// CHECK-NEXT: cvta.param.u64 %rd[[G:[0-9]+]], %rd[[P]];
// CHECK-NOT: .local
// CHECK: st.param.b64 [param0], %rd[[G]];
// CHECK-NEXT: call.uni (retval0), _Z3sumPK1S, (param0);
// CHECK-NOT: .local
// CHECK: ret;
__attribute__((global)) void reader(int *out, S s) { *out = sum(&s); }

// A select between two read-only structs: both stay in param space.
// CHECK-LABEL: .entry _Z4pickPi1SS0_(
// CHECK-NOT: .local
// CHECK-DAG: mov.b64 %rd[[X:[0-9]+]], _Z4pickPi1SS0__param_1;
// CHECK-DAG: mov.b64 %rd[[Y:[0-9]+]], _Z4pickPi1SS0__param_2;
// CHECK-DAG: cvta.param.u64 %rd[[GX:[0-9]+]], %rd[[X]];
// CHECK-DAG: cvta.param.u64 %rd[[GY:[0-9]+]], %rd[[Y]];
// CHECK: selp.b64 %rd[[G:[0-9]+]], {{%rd[0-9]+, %rd[0-9]+}}, %p{{[0-9]+}};
// CHECK-NOT: .local
// CHECK: st.param.b64 [param0], %rd[[G]];
// CHECK-NEXT: call.uni (retval0), _Z3sumPK1S, (param0);
// CHECK-NOT: .local
// CHECK: ret;
__attribute__((global)) void pick(int *out, S x, S y) {
  *out = sum(__nvvm_read_ptx_sreg_tid_x() & 1 ? &x : &y);
}

// Declared, not defined: it may write, so it gets a copy of the struct.
__attribute__((device)) int external(const S *p);

// CHECK-LABEL: .entry _Z7forwardPi1S(
// CHECK: .local .align 8 .b8 __local_depot{{[0-9]+}}[32];
// CHECK-NOT: .local .align
// CHECK-NOT: cvta.param
// CHECK: add.u64 %rd[[COPY:[0-9]+]], %SP, 0;
// CHECK: add.u64 %rd[[LOCAL:[0-9]+]], %SPL, 0;
// CHECK-DAG: ld.param.{{v2.b32|b64}} {{.*}}, [_Z7forwardPi1S_param_1];
// CHECK-DAG: ld.param.{{v2.b32|b64}} {{.*}}, [_Z7forwardPi1S_param_1+8];
// CHECK-DAG: ld.param.{{v2.b32|b64}} {{.*}}, [_Z7forwardPi1S_param_1+16];
// CHECK-DAG: ld.param.{{v2.b32|b64}} {{.*}}, [_Z7forwardPi1S_param_1+24];
// CHECK-DAG: st.local.{{v2.b32|b64}} [%rd[[LOCAL]]], {{.*}};
// CHECK-DAG: st.local.{{v2.b32|b64}} [%rd[[LOCAL]]+8], {{.*}};
// CHECK-DAG: st.local.{{v2.b32|b64}} [%rd[[LOCAL]]+16], {{.*}};
// CHECK-DAG: st.local.{{v2.b32|b64}} [%rd[[LOCAL]]+24], {{.*}};
// CHECK-NOT: cvta.param
// CHECK: st.param.b64 [param0], %rd[[COPY]];
// CHECK-NEXT: call.uni (retval0), _Z8externalPK1S, (param0);
// CHECK-NOT: .local
// CHECK: ret;
__attribute__((global)) void forward(int *out, S s) { *out = external(&s); }

// A callee in the module that writes through the pointer. clang marks the
// call and @bump `memory(argmem: readwrite)`, which is not "reads only"
// (a regression test: `readwrite` once passed for `read`). One copy, the
// call gets its address, and the kernel reads the written copy.
__attribute__((device)) __attribute__((noinline)) void bump(S *p) { p->a[0]++; }

// CHECK-LABEL: .entry _Z6writerPi1S(
// CHECK: .local .align 8 .b8 __local_depot{{[0-9]+}}[32];
// CHECK-NOT: cvta.param
// CHECK: call.uni _Z4bumpP1S, (param0);
// CHECK-NOT: cvta.param
// CHECK: ld.local.b32 %r{{[0-9]+}}, [%rd{{[0-9]+}}+12];
// CHECK: ret;
__attribute__((global)) void writer(int *out, S s) {
  bump(&s);
  *out = s.a[0];
}
