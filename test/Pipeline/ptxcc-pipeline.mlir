// ptxcc-pipeline runs the passes that have landed (today the final
// conversion), with one set of options handed to each of them, and its
// output compiles with llc.
// RUN: %ptxcc-opt %s --ptxcc-pipeline | FileCheck %s
// RUN: %ptxcc-opt %s --ptxcc-pipeline='vector-copy=false' | FileCheck %s --check-prefix=SCALAR
// RUN: %ptxcc-opt %s --ptxcc-pipeline | %to-llvmir | %llc-sm90 | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: llvm.func ptx_kernelcc @copy(
// CHECK-COUNT-2: llvm.load {{.*}} -> vector<4xi32>
// CHECK-NOT: ptxcc.
// SCALAR-LABEL: llvm.func ptx_kernelcc @copy(
// SCALAR-COUNT-4: llvm.load {{.*}} -> i64
// SCALAR-NOT: vector
// PTX-LABEL: .entry copy(
// PTX-COUNT-2: ld.param.v4.b32
// PTX-COUNT-2: st.local.v4.b32
llvm.func ptx_kernelcc @copy(%s: !llvm.ptr {llvm.byval = !llvm.array<4 x i64>, llvm.align = 16 : i64}) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  %one = llvm.mlir.constant(1 : i32) : i32
  %slot = llvm.alloca %one x !llvm.array<4 x i64> {alignment = 16 : i64} : (i32) -> !llvm.ptr<5>
  "ptxcc.copy_param"(%p, %slot) {size = 32 : i64, alignment = 16 : i64} : (!llvm.ptr<101>, !llvm.ptr<5>) -> ()
  %g = llvm.addrspacecast %slot : !llvm.ptr<5> to !llvm.ptr
  llvm.call @consume(%g) : (!llvm.ptr) -> ()
  llvm.return
}
llvm.func @consume(!llvm.ptr)
