// --verify-diagnostics: every designator, and a failure when a diagnostic
// is missing or unexpected.
// RUN: %ptxcc-opt %s --split-input-file --verify-diagnostics
// RUN: not %ptxcc-opt %S/Inputs/wrong-expectations.mlir --split-input-file --verify-diagnostics 2>&1 | FileCheck %s

// As in mlir-opt: unexpected diagnostics first, then directives not produced.
// CHECK: wrong-expectations.mlir:4:8: error: unexpected error: 'ptxcc.load_param' op alignment must be a power of two, got 3
// CHECK: wrong-expectations.mlir:2:6: error: expected error "a message nobody emits" was not produced
// CHECK: wrong-expectations.mlir:3:6: error: expected error "a message nobody emits" was not produced

llvm.func @plus(%p: !llvm.ptr<101>) {
  // expected-error @+1 {{alignment must be a power of two, got 3}}
  %v = "ptxcc.load_param"(%p) {offset = 0 : i64, alignment = 3 : i64} : (!llvm.ptr<101>) -> i32
  llvm.return
}

// -----

llvm.func @minus(%p: !llvm.ptr<101>) {
  %v = "ptxcc.load_param"(%p) {offset = 0 : i64, alignment = 5 : i64} : (!llvm.ptr<101>) -> i32
  // expected-error @-1 {{alignment must be a power of two, got 5}}
  llvm.return
}

// -----

llvm.func @above_below(%p: !llvm.ptr<101>) {
  // @below skips lines that hold directives; so does @above.
  // expected-error @below {{offset must not be negative, got -1}}
  // expected-error @+4 {{offset must not be negative, got -1}}
  %v = "ptxcc.load_param"(%p) {offset = -1 : i64, alignment = 4 : i64} : (!llvm.ptr<101>) -> i32
  %w = "ptxcc.load_param"(%p) {offset = -2 : i64, alignment = 4 : i64} : (!llvm.ptr<101>) -> i32
  // expected-error @above {{offset must not be negative, got -2}}
  %x = "ptxcc.load_param"(%p) {offset = -1 : i64, alignment = 4 : i64} : (!llvm.ptr<101>) -> i32
  llvm.return
}

// -----

// Without a designator a directive applies to its own line.
llvm.func @same_line(%p: !llvm.ptr<101>) {
  %v = "ptxcc.load_param"(%p) {offset = 0 : i64, alignment = 6 : i64} : (!llvm.ptr<101>) -> i32 // expected-error {{got 6}}
  llvm.return
}
