// A function the conversion rejects is left exactly as it was: no marks,
// no half-lowered ops. (The pass fails, so look at the IR it printed on
// failure.)
// RUN: not %ptxcc-opt %s --convert-ptxcc-to-llvm --mlir-print-ir-after-failure 2>&1 | FileCheck %s

// CHECK-LABEL: llvm.func @rejected(
// CHECK-NOT: nvvm.grid_constant
// CHECK: "ptxcc.load_param"
// CHECK: "ptxcc.param_to_generic"
// CHECK: error: 'ptxcc.param_to_generic' op is only valid in a kernel
llvm.func @rejected(%s: !llvm.ptr {llvm.byval = !llvm.array<4 x i64>, llvm.align = 8 : i64}) -> i64 {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  %v = "ptxcc.load_param"(%p) {offset = 8 : i64, alignment = 8 : i64} : (!llvm.ptr<101>) -> i64
  %g = "ptxcc.param_to_generic"(%p) : (!llvm.ptr<101>) -> !llvm.ptr
  llvm.return %v : i64
}
