// Round trip of every ptxcc op: ptxcc-opt parses and verifies them (the
// dialect is registered through IRDL), prints them in generic form, and
// parses its own output again.
// RUN: %ptxcc-opt %s | %ptxcc-opt | FileCheck %s

// CHECK-LABEL: llvm.func ptx_kernelcc @every_op(
// CHECK-SAME: %[[S:.*]]: !llvm.ptr {llvm.align = 16 : i64, llvm.byval = !llvm.array<32 x i8>}
// CHECK-SAME: %[[G:.*]]: !llvm.ptr)
llvm.func ptx_kernelcc @every_op(%s: !llvm.ptr {llvm.byval = !llvm.array<32 x i8>, llvm.align = 16 : i64}, %g: !llvm.ptr) {
  // CHECK: %[[P:.*]] = llvm.addrspacecast %[[S]] : !llvm.ptr to !llvm.ptr<101>
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  // CHECK: "ptxcc.load_param"(%[[P]]) {alignment = 4 : i64, offset = 24 : i64} : (!llvm.ptr<101>) -> i32
  %v = "ptxcc.load_param"(%p) {offset = 24 : i64, alignment = 4 : i64} : (!llvm.ptr<101>) -> i32
  // CHECK: "ptxcc.param_to_generic"(%[[P]]) : (!llvm.ptr<101>) -> !llvm.ptr
  %gen = "ptxcc.param_to_generic"(%p) : (!llvm.ptr<101>) -> !llvm.ptr
  // CHECK: "ptxcc.param_to_global"(%[[P]]) : (!llvm.ptr<101>) -> !llvm.ptr<1>
  %glob = "ptxcc.param_to_global"(%p) : (!llvm.ptr<101>) -> !llvm.ptr<1>
  // CHECK: "ptxcc.generic_to_as"(%[[G]]) : (!llvm.ptr) -> !llvm.ptr<3>
  %shared = "ptxcc.generic_to_as"(%g) : (!llvm.ptr) -> !llvm.ptr<3>
  %one = llvm.mlir.constant(1 : i32) : i32
  // CHECK: %[[SLOT:.*]] = llvm.alloca
  %slot = llvm.alloca %one x !llvm.array<32 x i8> {alignment = 16 : i64} : (i32) -> !llvm.ptr<5>
  // CHECK: "ptxcc.copy_param"(%[[P]], %[[SLOT]]) {alignment = 16 : i64, size = 32 : i64} : (!llvm.ptr<101>, !llvm.ptr<5>) -> ()
  "ptxcc.copy_param"(%p, %slot) {size = 32 : i64, alignment = 16 : i64} : (!llvm.ptr<101>, !llvm.ptr<5>) -> ()
  llvm.return
}

// Every kind of loadable result, and the largest alignment LLVM allows.
// CHECK-LABEL: llvm.func @loadable_results(
// CHECK: -> !llvm.struct<(i32, array<2 x f16>, vector<2xf32>, ptr<1>)>
// CHECK: {alignment = 4294967296 : i64, offset = 0 : i64} : (!llvm.ptr<101>) -> bf16
llvm.func @loadable_results(%p: !llvm.ptr<101>) {
  %a = "ptxcc.load_param"(%p) {offset = 0 : i64, alignment = 4 : i64} : (!llvm.ptr<101>) -> !llvm.struct<(i32, array<2 x f16>, vector<2xf32>, ptr<1>)>
  %b = "ptxcc.load_param"(%p) {offset = 0 : i64, alignment = 4294967296 : i64} : (!llvm.ptr<101>) -> bf16
  llvm.return
}
