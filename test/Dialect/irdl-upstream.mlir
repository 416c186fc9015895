// The IRDL definition that ptxcc-opt prints (generated from the ODS source)
// lets upstream mlir-opt parse and verify ptxcc IR.
// RUN: %ptxcc-opt --print-irdl > %t.irdl.mlir
// RUN: mlir-opt --irdl-file=%t.irdl.mlir %s | FileCheck %s
// -o names the file it goes to, as for every output (the same text).
// RUN: rm -f %t.o.irdl.mlir && %ptxcc-opt --print-irdl -o %t.o.irdl.mlir > %t.stdout
// RUN: cmp %t.irdl.mlir %t.o.irdl.mlir
// RUN: not test -s %t.stdout
// RUN: not mlir-opt --irdl-file=%t.irdl.mlir %S/Inputs/wrong-address-space.mlir 2>&1 | FileCheck %s --check-prefix=WRONG

// CHECK-LABEL: llvm.func @upstream_reads_ptxcc(
llvm.func @upstream_reads_ptxcc(%s: !llvm.ptr, %g: !llvm.ptr) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  // CHECK: "ptxcc.load_param"
  %v = "ptxcc.load_param"(%p) {offset = 8 : i64, alignment = 8 : i64} : (!llvm.ptr<101>) -> i64
  // CHECK: "ptxcc.param_to_generic"
  %gen = "ptxcc.param_to_generic"(%p) : (!llvm.ptr<101>) -> !llvm.ptr
  // CHECK: "ptxcc.param_to_global"
  %glob = "ptxcc.param_to_global"(%p) : (!llvm.ptr<101>) -> !llvm.ptr<1>
  // CHECK: "ptxcc.generic_to_as"
  %l = "ptxcc.generic_to_as"(%g) : (!llvm.ptr) -> !llvm.ptr<5>
  // CHECK: "ptxcc.copy_param"
  "ptxcc.copy_param"(%p, %g) {size = 16 : i64, alignment = 8 : i64} : (!llvm.ptr<101>, !llvm.ptr) -> ()
  llvm.return
}

// WRONG: error: expected '!llvm.ptr<101>' but got '!llvm.ptr'
