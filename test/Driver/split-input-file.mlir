// Each piece is processed on its own; the outputs are joined with the
// marker, and a failing piece does not stop the others.
// RUN: %ptxcc-opt %s --split-input-file --convert-ptxcc-to-llvm | FileCheck %s
// RUN: not %ptxcc-opt %s --convert-ptxcc-to-llvm 2>&1 | FileCheck %s --check-prefix=WHOLE

// CHECK-LABEL: llvm.func @first(
// CHECK: // -----
// CHECK-LABEL: llvm.func @first(
llvm.func @first() {
  llvm.return
}

// -----

// Line numbers are those of the whole file.
// WHOLE: split-input-file.mlir:17:1: error: redefinition of symbol named 'first'
llvm.func @first() {
  llvm.return
}
