// Input of verify-diagnostics-upstream.mlir: diagnostics that mlir-opt and
// ptxcc-opt both emit (LLVM dialect verifier and parser errors), checked
// against expectations that are partly wrong on purpose.

// expected-error @+1 {{a message nobody emits}}
llvm.func @f() -> i32 {
  llvm.return
}

// -----

llvm.func @g(%a: i32) -> i64 {
  // expected-warning @+1 {{mismatching result types}}
  llvm.return %a : i32
}

// -----

llvm.func @h() {
  // expected-error-re @+1 {{{{^}}use of {{[[:alpha:]]+}} SSA{{( (value|name))+$}}}}
  llvm.return %x : i32
}

// -----

llvm.func @k() -> i32 {
  // expected-error @below {{op expected 1 operand}}
  // expected-note @above {{not this one}}
  llvm.return
}

// -----

llvm.func @l(%a: i64) -> i32 {
  // expected-error @+2 {{mismatching result types}}
  // expected-note @-2 {{when returning from function}}
  llvm.return %a : i64
}
