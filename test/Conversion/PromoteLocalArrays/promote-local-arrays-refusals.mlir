// promote-local-arrays leaves an array in local memory, and the function
// unchanged, when unrolling cannot make every index constant or SROA could
// not promote the array anyway; the remark says why.
// RUN: %ptxcc-opt %s -split-input-file --pass-pipeline='builtin.module(llvm.func(promote-local-arrays{promote-remarks=true}))' --verify-diagnostics | FileCheck %s
// The budgets (max-trip-count, max-promoted-registers, max-unrolled-ops).
// RUN: %ptxcc-opt %s -split-input-file --pass-pipeline='builtin.module(llvm.func(promote-local-arrays{promote-remarks=true max-trip-count=3 max-promoted-registers=2 max-unrolled-ops=20}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=BUDGET

// An index read from memory in a loop (a histogram): nothing to unroll,
// and selects would run every iteration.
// CHECK-LABEL: llvm.func @data_index(
// CHECK: llvm.cond_br
// BUDGET: remark: kept in local memory: an index is computed by 'llvm.load', not by counted loops, and selects on the index would run in a loop
llvm.func @data_index(%in: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  // expected-remark @+1 {{kept in local memory: an index is computed by 'llvm.load', not by counted loops, and selects on the index would run in a loop}}
  %a = llvm.alloca %c1 x !llvm.array<4 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.br ^loop(%c0 : i32)
^loop(%k: i32):
  %v = llvm.load %in {alignment = 4 : i64} : !llvm.ptr -> i32
  %p = llvm.getelementptr %a[0, %v] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x i32>
  llvm.store %k, %p {alignment = 4 : i64} : i32, !llvm.ptr
  %next = llvm.add %k, %c1 : i32
  %done = llvm.icmp "eq" %next, %c4 : i32
  llvm.cond_br %done, ^exit, ^loop(%next : i32)
^exit:
  llvm.return
}

// -----

// The trip count depends on an argument.
// CHECK-LABEL: llvm.func @dynamic_trips(
// CHECK: llvm.cond_br
// BUDGET: remark: kept in local memory: the loop's trip count is not a constant, and selects on the index would run in a loop
llvm.func @dynamic_trips(%n: i32) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  // expected-remark @+1 {{kept in local memory: the loop's trip count is not a constant, and selects on the index would run in a loop}}
  %a = llvm.alloca %c1 x !llvm.array<4 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.br ^loop(%c0 : i32)
^loop(%k: i32):
  %p = llvm.getelementptr %a[0, %k] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x i32>
  llvm.store %k, %p {alignment = 4 : i64} : i32, !llvm.ptr
  %next = llvm.add %k, %c1 : i32
  %done = llvm.icmp "eq" %next, %n : i32
  llvm.cond_br %done, ^exit, ^loop(%next : i32)
^exit:
  llvm.return
}

// -----

// The array escapes to a call: SROA could not promote it however constant
// its indices.
// CHECK-LABEL: llvm.func @escapes(
// CHECK: llvm.cond_br
// BUDGET: remark: kept in local memory: its address is used by 'llvm.call'
llvm.func @use(!llvm.ptr)
llvm.func @escapes() {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  // expected-remark @+1 {{kept in local memory: its address is used by 'llvm.call'}}
  %a = llvm.alloca %c1 x !llvm.array<4 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.br ^loop(%c0 : i32)
^loop(%k: i32):
  %p = llvm.getelementptr %a[0, %k] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x i32>
  llvm.store %k, %p {alignment = 4 : i64} : i32, !llvm.ptr
  %next = llvm.add %k, %c1 : i32
  %done = llvm.icmp "eq" %next, %c4 : i32
  llvm.cond_br %done, ^exit, ^loop(%next : i32)
^exit:
  llvm.call @use(%a) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

// A volatile access must stay a memory access.
// CHECK-LABEL: llvm.func @volatile(
// CHECK: llvm.cond_br
// BUDGET: remark: kept in local memory: it is accessed volatile
llvm.func @volatile() {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  // expected-remark @+1 {{kept in local memory: it is accessed volatile}}
  %a = llvm.alloca %c1 x !llvm.array<4 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.br ^loop(%c0 : i32)
^loop(%k: i32):
  %p = llvm.getelementptr %a[0, %k] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x i32>
  llvm.store volatile %k, %p {alignment = 4 : i64} : i32, !llvm.ptr
  %next = llvm.add %k, %c1 : i32
  %done = llvm.icmp "eq" %next, %c4 : i32
  llvm.cond_br %done, ^exit, ^loop(%next : i32)
^exit:
  llvm.return
}

// -----

// An index that is a function argument, outside loops, over more elements
// than max-select-elements (16).
// CHECK-LABEL: llvm.func @many_elements(
// CHECK: llvm.getelementptr %{{.*}}[0, %arg0]
// BUDGET: remark: kept in local memory: an index depends on a function argument, and an index may reach 32 elements, more than 16 (max-select-elements)
llvm.func @many_elements(%i: i32) -> i32 {
  %c1 = llvm.mlir.constant(1 : i32) : i32
  // expected-remark @+1 {{kept in local memory: an index depends on a function argument, and an index may reach 32 elements, more than 16 (max-select-elements)}}
  %a = llvm.alloca %c1 x !llvm.array<32 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %p = llvm.getelementptr %a[0, %i] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<32 x i32>
  %v = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> i32
  llvm.return %v : i32
}

// -----

// A loop that leaves from its middle (a `break`) and whose value is used
// after it is not unrolled: the use would need the value of whichever
// iteration left. (Without such a use it is: promote-local-arrays.mlir's
// @early_exit.)
// CHECK-LABEL: llvm.func @early_exit_live_out(
// CHECK: llvm.cond_br
// BUDGET: remark: kept in local memory: the loop leaves from more than one place and a value of the loop is used after it, and selects on the index would run in a loop
llvm.func @early_exit_live_out(%in: !llvm.ptr) -> i32 {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  // expected-remark @+1 {{kept in local memory: the loop leaves from more than one place and a value of the loop is used after it, and selects on the index would run in a loop}}
  %a = llvm.alloca %c1 x !llvm.array<4 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.br ^loop(%c0 : i32)
^loop(%k: i32):
  %v = llvm.load %in {alignment = 4 : i64} : !llvm.ptr -> i32
  %stop = llvm.icmp "eq" %v, %k : i32
  llvm.cond_br %stop, ^exit, ^latch
^latch:
  %p = llvm.getelementptr %a[0, %k] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x i32>
  llvm.store %k, %p {alignment = 4 : i64} : i32, !llvm.ptr
  %next = llvm.add %k, %c1 : i32
  %done = llvm.icmp "eq" %next, %c4 : i32
  llvm.cond_br %done, ^exit, ^loop(%next : i32)
^exit:
  llvm.return %v : i32
}

// -----

// Within the default budgets; above the tight ones: 4 iterations is more
// than max-trip-count=3.
// CHECK-LABEL: llvm.func @four_trips(
// CHECK-NOT: llvm.cond_br
// BUDGET: remark: kept in local memory: the loop runs more than 3 times (max-trip-count)
llvm.func @four_trips() {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  // expected-remark @+1 {{promoted to registers: 4 bytes; loops unrolled with 4 iterations}}
  %a = llvm.alloca %c1 x !llvm.array<4 x i8> {alignment = 1 : i64} : (i32) -> !llvm.ptr
  llvm.br ^loop(%c0 : i32)
^loop(%k: i32):
  %p = llvm.getelementptr %a[0, %k] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x i8>
  %b = llvm.trunc %k : i32 to i8
  llvm.store %b, %p {alignment = 1 : i64} : i8, !llvm.ptr
  %next = llvm.add %k, %c1 : i32
  %done = llvm.icmp "eq" %next, %c4 : i32
  llvm.cond_br %done, ^exit, ^loop(%next : i32)
^exit:
  llvm.return
}

// -----

// Two arrays indexed by one loop of three iterations (a ten-op body adds
// 20 ops, max-unrolled-ops=20): the first fits max-promoted-registers=2
// (8 bytes), the second would take 12 more bytes.
// CHECK-LABEL: llvm.func @registers(
// BUDGET: remark: promoted to registers: 8 bytes; loops unrolled with 3 iterations
// BUDGET: remark: kept in local memory: its 12 bytes exceed the 0 bytes of registers left (max-promoted-registers)
llvm.func @registers() {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c3 = llvm.mlir.constant(3 : i32) : i32
  // expected-remark @+1 {{promoted to registers: 8 bytes; loops unrolled with 3 iterations}}
  %a = llvm.alloca %c1 x !llvm.array<4 x i16> {alignment = 2 : i64} : (i32) -> !llvm.ptr
  // expected-remark @+1 {{promoted to registers: 12 bytes; loops unrolled with 3 iterations}}
  %b = llvm.alloca %c1 x !llvm.array<3 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.br ^loop(%c0 : i32)
^loop(%k: i32):
  %p = llvm.getelementptr %a[0, %k] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x i16>
  %h = llvm.trunc %k : i32 to i16
  llvm.store %h, %p {alignment = 2 : i64} : i16, !llvm.ptr
  %q = llvm.getelementptr %b[0, %k] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<3 x i32>
  llvm.store %k, %q {alignment = 4 : i64} : i32, !llvm.ptr
  %next = llvm.add %k, %c1 : i32
  %done = llvm.icmp "eq" %next, %c3 : i32
  llvm.cond_br %done, ^exit, ^loop(%next : i32)
^exit:
  llvm.return
}

// -----

// Three iterations of a twelve-op body add 24 ops: more than
// max-unrolled-ops=20.
// CHECK-LABEL: llvm.func @size(
// BUDGET: remark: kept in local memory: the loop runs more than 2 times, more than max-unrolled-ops allows for its size, and selects on the index would run in a loop
llvm.func @size() {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c3 = llvm.mlir.constant(3 : i32) : i32
  // expected-remark @+1 {{promoted to registers: 3 bytes; loops unrolled with 3 iterations}}
  %a = llvm.alloca %c1 x !llvm.array<3 x i8> {alignment = 1 : i64} : (i32) -> !llvm.ptr
  llvm.br ^loop(%c0 : i32)
^loop(%k: i32):
  %p = llvm.getelementptr %a[0, %k] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<3 x i8>
  %b = llvm.trunc %k : i32 to i8
  %c = llvm.mul %b, %b : i8
  %d = llvm.mul %c, %c : i8
  %e = llvm.mul %d, %d : i8
  %f = llvm.add %e, %b : i8
  %g = llvm.xor %f, %b : i8
  %h = llvm.or %g, %b : i8
  llvm.store %h, %p {alignment = 1 : i64} : i8, !llvm.ptr
  %next = llvm.add %k, %c1 : i32
  %done = llvm.icmp "eq" %next, %c3 : i32
  llvm.cond_br %done, ^exit, ^loop(%next : i32)
^exit:
  llvm.return
}
