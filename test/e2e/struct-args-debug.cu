// (-nocudainc: no CUDA headers, so __global__ is spelled as its attribute.)
// Debug information does not cost a copy: at -O0 -g clang describes the
// byval struct with a dbg.declare of the parameter. That use only names the
// pointer, so it keeps the parameter while the reads go to param space, and
// the struct is not copied to local memory for it.
// RUN: %clang-cuda -O0 -g -S -emit-llvm %s -o %t.ll
// RUN: mlir-translate --import-llvm %t.ll -o %t.mlir
// RUN: %ptxcc-opt %t.mlir --lower-struct-args | FileCheck %s
// RUN: %ptxcc-opt %t.mlir --ptxcc-pipeline | %to-llvmir | %llc-sm90 -O0 | FileCheck %s --check-prefix=PTX

struct S {
  double f;
  char b;
  int a[4];
};

// CHECK-LABEL: llvm.func ptx_kernelcc @_Z4readPd1Si(
// CHECK-SAME: %[[S:[^:]*]]: !llvm.ptr {llvm.align = 8 : i64, llvm.byval
// CHECK: %[[P:.*]] = llvm.addrspacecast %[[S]] : !llvm.ptr to !llvm.ptr<101>
// CHECK: llvm.intr.dbg.declare #{{[a-z_0-9]+}} = %[[S]] : !llvm.ptr
// CHECK: "ptxcc.load_param"(%[[P]]) {alignment = 8 : i64, offset = 0 : i64} : (!llvm.ptr<101>) -> f64
// CHECK-NOT: "ptxcc.copy_param"
// CHECK: llvm.return
// At -O0 the other parameters live in local memory (8 + 4 bytes, 16 with
// alignment); a copy of the struct would add 32.
// PTX-LABEL: .entry _Z4readPd1Si(
// PTX: .local .align 8 .b8 __local_depot{{[0-9]+}}[16];
// PTX: ld.param.b64 %rd{{[0-9]+}}, [_Z4readPd1Si_param_1];
// PTX: ret;
__attribute__((global)) void read(double *out, S s, int i) { *out = s.f + s.a[i]; }
