// --verify-diagnostics is mlir-opt's own check: on the same input and the
// same diagnostics, ptxcc-opt's report is mlir-opt's, byte for byte
// (unexpected diagnostics, a severity near miss, directives not produced,
// regular expressions with POSIX classes and alternation, @above/@below).
// RUN: not %llvm-bin/mlir-opt %S/Inputs/upstream-expectations.mlir --split-input-file --verify-diagnostics 2> %t.upstream > %t.ignored
// RUN: not %ptxcc-opt %S/Inputs/upstream-expectations.mlir --split-input-file --verify-diagnostics 2> %t.ours > %t.ignored
// RUN: diff %t.upstream %t.ours
// RUN: FileCheck %s < %t.ours

// The report is not empty, and holds each kind of problem.
// CHECK: upstream-expectations.mlir:7:3: error: unexpected error: 'llvm.return' op expected 1 operand
// CHECK: upstream-expectations.mlir:13:6: error: 'error' diagnostic emitted when expecting a 'warning'
// CHECK: error: expected error "a message nobody emits" was not produced
// CHECK: error: expected note "not this one" was not produced

// Only-expected ignores the unexpected diagnostics, not the missing ones.
// RUN: not %llvm-bin/mlir-opt %S/Inputs/upstream-expectations.mlir --split-input-file --verify-diagnostics=only-expected 2> %t.upstream-only > %t.ignored
// RUN: not %ptxcc-opt %S/Inputs/upstream-expectations.mlir --split-input-file --verify-diagnostics=only-expected 2> %t.ours-only > %t.ignored
// RUN: diff %t.upstream-only %t.ours-only
// RUN: FileCheck %s --check-prefix=ONLY < %t.ours-only
// ONLY-NOT: unexpected error
// ONLY: error: expected error "a message nobody emits" was not produced
