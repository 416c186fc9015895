// The conversion's output is valid PTX with the accesses the seeds ask for:
// ld.param at the field offset, cvta.param with no local copy for the
// escaping address, and v4 param loads / local stores for the copy.
// RUN: %ptxcc-opt %s --convert-ptxcc-to-llvm | %to-llvmir | %llc-sm90 | FileCheck %s

// CHECK-LABEL: .entry k(
// CHECK-NEXT: .param .align 8 .b8 k_param_0[32],
// CHECK-NEXT: .param .u64 .ptr .align 1 k_param_1
// CHECK: .local .align 16 .b8 __local_depot0[32];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [k_param_0+24];
// CHECK-DAG: ld.param.b64 %rd{{[0-9]+}}, [k_param_0];
// CHECK: cvta.param.u64 %rd[[GEN:[0-9]+]], %rd{{[0-9]+}};
// CHECK: st.param.b64 [param0], %rd[[GEN]];
// CHECK: call.uni consume,
// CHECK: ld.param.v4.b32 {%r{{.*}}}, [k_param_0];
// CHECK: ld.param.v4.b32 {%r{{.*}}}, [k_param_0+16];
// CHECK: st.local.v4.b32 [%SP], {%r{{.*}}};
// CHECK: st.local.v4.b32 [%SP+16], {%r{{.*}}};
// CHECK: call.uni consume,
// CHECK-NOT: ld.param.b8
llvm.func ptx_kernelcc @k(%s: !llvm.ptr {llvm.byval = !llvm.struct<(f64, i8, array<4 x i32>)>, llvm.align = 8 : i64}, %out: !llvm.ptr) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  %f = "ptxcc.load_param"(%p) {offset = 0 : i64, alignment = 8 : i64} : (!llvm.ptr<101>) -> f64
  %a3 = "ptxcc.load_param"(%p) {offset = 24 : i64, alignment = 4 : i64} : (!llvm.ptr<101>) -> i32
  llvm.store %a3, %out : i32, !llvm.ptr
  %o8 = llvm.getelementptr %out[8] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %f, %o8 : f64, !llvm.ptr
  %g = "ptxcc.param_to_generic"(%p) : (!llvm.ptr<101>) -> !llvm.ptr
  llvm.call @consume(%g) : (!llvm.ptr) -> ()
  %one = llvm.mlir.constant(1 : i32) : i32
  %slot = llvm.alloca %one x !llvm.struct<(f64, i8, array<4 x i32>)> {alignment = 16 : i64} : (i32) -> !llvm.ptr<5>
  "ptxcc.copy_param"(%p, %slot) {size = 32 : i64, alignment = 16 : i64} : (!llvm.ptr<101>, !llvm.ptr<5>) -> ()
  %sg = llvm.addrspacecast %slot : !llvm.ptr<5> to !llvm.ptr
  llvm.call @consume(%sg) : (!llvm.ptr) -> ()
  llvm.return
}
llvm.func @consume(!llvm.ptr)

// A copy above the inline threshold is a loop that moves 16 bytes per
// iteration, 32 iterations for 512 bytes (a memcpy is a byte loop in llc:
// 512 iterations of ld.param.b8 / st.local.b8), which ptxas must not
// unroll (`.pragma "nounroll"`: unrolled, its loads all in flight took
// more registers than llc's byte loop); the local destination is
// addressed as generic (see ptxcc-to-llvm.mlir) and llc stores to it with
// st.local.
// CHECK-LABEL: .entry big(
// CHECK: .local .align 16 .b8 __local_depot1[512];
// CHECK: mov.b64 %rd[[I:[0-9]+]], 0;
// CHECK: $L__BB1_1:
// CHECK-NEXT: .pragma "nounroll";
// CHECK-NEXT: add.s64 %rd[[S:[0-9]+]], %rd{{[0-9]+}}, %rd[[I]];
// CHECK-NEXT: ld.param.v4.b32 {[[V:%r[0-9]+, %r[0-9]+, %r[0-9]+, %r[0-9]+]]}, [%rd[[S]]];
// CHECK-NEXT: add.s64 %rd[[D:[0-9]+]], %rd{{[0-9]+}}, %rd[[I]];
// CHECK-NEXT: st.local.v4.b32 [%rd[[D]]], {[[V]]};
// CHECK-NEXT: add.s64 %rd[[I]], %rd[[I]], 16;
// CHECK-NEXT: setp.lt.u64 %p[[MORE:[0-9]+]], %rd[[I]], 512;
// CHECK-NEXT: @%p[[MORE]] bra $L__BB1_1;
// CHECK-NOT: .b8
llvm.func ptx_kernelcc @big(%s: !llvm.ptr {llvm.byval = !llvm.array<512 x i8>, llvm.align = 16 : i64}) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  %one = llvm.mlir.constant(1 : i32) : i32
  %slot = llvm.alloca %one x !llvm.array<512 x i8> {alignment = 16 : i64} : (i32) -> !llvm.ptr<5>
  "ptxcc.copy_param"(%p, %slot) {size = 512 : i64, alignment = 16 : i64} : (!llvm.ptr<101>, !llvm.ptr<5>) -> ()
  %sg = llvm.addrspacecast %slot : !llvm.ptr<5> to !llvm.ptr
  llvm.call @consume(%sg) : (!llvm.ptr) -> ()
  llvm.return
}
