// promote-local-arrays: loops with a constant trip count that index a
// per-thread array are unrolled and every index becomes a constant, so that
// SROA (llc's, or LLVM's -O2 after ptxcc) keeps the array in registers.
// RUN: %ptxcc-opt %s -split-input-file --pass-pipeline='builtin.module(llvm.func(promote-local-arrays))' | FileCheck %s
// The decisions, as remarks at the arrays.
// RUN: %ptxcc-opt %s -split-input-file --pass-pipeline='builtin.module(llvm.func(promote-local-arrays{promote-remarks=true}))' --verify-diagnostics -o /dev/null
// Each function still computes what it did (llc's PTX of the result is valid).
// RUN: %ptxcc-opt %s --pass-pipeline='builtin.module(llvm.func(promote-local-arrays))' | %to-llvmir | %llc-sm90 -o /dev/null
// The indices are written in the GEPs, where MLIR's own sroa and mem2reg
// see them: they promote every array but @inner_array's (an index into the
// struct before the array, which MLIR's SROA cannot split) and @scale's
// parameter copy (whole-aggregate loads).
// RUN: %ptxcc-opt %s -split-input-file --pass-pipeline='builtin.module(llvm.func(promote-local-arrays),sroa,mem2reg)' | FileCheck %s --check-prefix=UPSTREAM

// clang -O2's rotated loop: one block that tests at its end. Four copies of
// the body in that block, each storing at a constant index; the exit test and
// the counter's steps are gone, and the load after the loop is untouched.
// CHECK-LABEL: llvm.func @bottom_tested(
// UPSTREAM-LABEL: llvm.func @bottom_tested(
// UPSTREAM-NOT: llvm.alloca
// UPSTREAM: llvm.return
// CHECK: %[[A:.*]] = llvm.alloca
// CHECK: llvm.br ^[[BODY:.*]](%{{.*}} : i32)
// CHECK: ^[[BODY]](%{{.*}}: i32):
// CHECK-NOT: llvm.add
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[A]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT: llvm.store %{{.*}}, %[[P0]]
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[A]][0, 1] :
// CHECK-NEXT: llvm.store %{{.*}}, %[[P1]]
// CHECK: %[[P3:.*]] = llvm.getelementptr %[[A]][0, 3] :
// CHECK-NEXT: llvm.store %{{.*}}, %[[P3]]
// CHECK-NOT: llvm.cond_br
// CHECK: llvm.br ^[[EXIT:.*]]
// CHECK: ^[[EXIT]]:
// CHECK-NEXT: llvm.getelementptr %[[A]][0, 2]
llvm.func @bottom_tested(%out: !llvm.ptr, %in: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  // expected-remark @+1 {{promoted to registers: 16 bytes; loops unrolled with 4 iterations}}
  %a = llvm.alloca %c1 x !llvm.array<4 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.br ^loop(%c0 : i32)
^loop(%k: i32):
  %k64 = llvm.zext %k : i32 to i64
  %src = llvm.getelementptr %in[%k64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %src {alignment = 4 : i64} : !llvm.ptr -> f32
  %dst = llvm.getelementptr %a[0, %k64] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<4 x f32>
  llvm.store %v, %dst {alignment = 4 : i64} : f32, !llvm.ptr
  %next = llvm.add %k, %c1 : i32
  %done = llvm.icmp "eq" %next, %c4 : i32
  llvm.cond_br %done, ^exit, ^loop(%next : i32)
^exit:
  %p = llvm.getelementptr %a[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
  %r = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> f32
  llvm.store %r, %out {alignment = 4 : i64} : f32, !llvm.ptr
  llvm.return
}

// -----

// MLIR's form of scf.for: the header tests, the latch branches back. The
// header runs once more to leave, so its last copy branches to the exit;
// the sum carried through the header reaches the code after the loop from
// the last iteration.
// CHECK-LABEL: llvm.func @top_tested(
// UPSTREAM-LABEL: llvm.func @top_tested(
// UPSTREAM-NOT: llvm.alloca
// UPSTREAM: llvm.return
// CHECK-SAME: %[[OUT:[^:]*]]: !llvm.ptr, %[[X:[^:]*]]: f32)
// CHECK: %[[A:.*]] = llvm.alloca
// CHECK: ^{{.*}}(%{{.*}}: i64, %[[ACC:.*]]: f32):
// CHECK-NOT: llvm.cond_br
// CHECK: llvm.getelementptr %[[A]][0, 0]
// CHECK-NEXT: %[[S0:.*]] = llvm.fadd %[[ACC]], %[[X]]
// CHECK: %[[S1:.*]] = llvm.fadd %[[S0]], %[[X]]
// CHECK: %[[S2:.*]] = llvm.fadd %[[S1]], %[[X]]
// CHECK-NOT: llvm.fadd
// CHECK-NOT: llvm.cond_br
// CHECK: llvm.store %[[S2]], %[[OUT]]
llvm.func @top_tested(%out: !llvm.ptr, %x: f32) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c3 = llvm.mlir.constant(3 : i64) : i64
  %one = llvm.mlir.constant(1 : i32) : i32
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  // expected-remark @+1 {{promoted to registers: 12 bytes; loops unrolled with 3 iterations}}
  %a = llvm.alloca %one x !llvm.array<3 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.br ^header(%c0, %zero : i64, f32)
^header(%i: i64, %acc: f32):
  %more = llvm.icmp "slt" %i, %c3 : i64
  llvm.cond_br %more, ^body, ^exit
^body:
  %p = llvm.getelementptr %a[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<3 x f32>
  %s = llvm.fadd %acc, %x : f32
  llvm.store %s, %p {alignment = 4 : i64} : f32, !llvm.ptr
  %n = llvm.add %i, %c1 : i64
  llvm.br ^header(%n, %s : i64, f32)
^exit:
  llvm.store %acc, %out {alignment = 4 : i64} : f32, !llvm.ptr
  %q = llvm.getelementptr %a[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<3 x f32>
  %r = llvm.load %q {alignment = 4 : i64} : !llvm.ptr -> f32
  %o = llvm.getelementptr %out[1] : (!llvm.ptr) -> !llvm.ptr, f32
  llvm.store %r, %o {alignment = 4 : i64} : f32, !llvm.ptr
  llvm.return
}

// -----

// Nested loops over a 2x2 array: the inner loop is unrolled first, then the
// outer one with the inner copies in it. The memset that clears the array
// becomes four stores of 0.0 (llc makes every memset a byte loop, which
// would keep the array in memory).
// CHECK-LABEL: llvm.func @nested(
// UPSTREAM-LABEL: llvm.func @nested(
// UPSTREAM-NOT: llvm.alloca
// UPSTREAM: llvm.return
// CHECK: %[[A:.*]] = llvm.alloca
// CHECK-NOT: llvm.intr.memset
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK-NEXT: llvm.store %[[ZERO]], %[[A]] {alignment = 4 : i64}
// CHECK-NEXT: %[[B4:.*]] = llvm.getelementptr %[[A]][4] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT: llvm.store %[[ZERO]], %[[B4]] {alignment = 4 : i64}
// CHECK-COUNT-2: llvm.store %[[ZERO]]
// CHECK: llvm.getelementptr %[[A]][0, 0, 0]
// CHECK: llvm.getelementptr %[[A]][0, 0, 1]
// CHECK: llvm.getelementptr %[[A]][0, 1, 0]
// CHECK: llvm.getelementptr %[[A]][0, 1, 1]
// CHECK-NOT: llvm.cond_br
// CHECK: llvm.return
llvm.func @nested(%out: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c2 = llvm.mlir.constant(2 : i32) : i32
  %zero = llvm.mlir.constant(0 : i8) : i8
  %len = llvm.mlir.constant(16 : i64) : i64
  // expected-remark @+1 {{promoted to registers: 16 bytes; loops unrolled with 2, 2 iterations}}
  %a = llvm.alloca %c1 x !llvm.array<2 x array<2 x f32>> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  "llvm.intr.memset"(%a, %zero, %len) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
  llvm.br ^outer(%c0 : i32)
^outer(%i: i32):
  llvm.br ^inner(%c0 : i32)
^inner(%j: i32):
  %i64 = llvm.sext %i : i32 to i64
  %j64 = llvm.sext %j : i32 to i64
  %p = llvm.getelementptr %a[0, %i64, %j64] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.array<2 x array<2 x f32>>
  %v = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> f32
  %w = llvm.sitofp %j : i32 to f32
  %s = llvm.fadd %v, %w : f32
  llvm.store %s, %p {alignment = 4 : i64} : f32, !llvm.ptr
  %jn = llvm.add %j, %c1 : i32
  %jd = llvm.icmp "slt" %jn, %c2 : i32
  llvm.cond_br %jd, ^inner(%jn : i32), ^latch
^latch:
  %in = llvm.add %i, %c1 : i32
  %id = llvm.icmp "slt" %in, %c2 : i32
  llvm.cond_br %id, ^outer(%in : i32), ^exit
^exit:
  %q = llvm.getelementptr %a[0, 1, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x array<2 x f32>>
  %r = llvm.load %q {alignment = 4 : i64} : !llvm.ptr -> f32
  llvm.store %r, %out {alignment = 4 : i64} : f32, !llvm.ptr
  llvm.return
}

// -----

// A body of several blocks (a branch on data inside the loop): each
// iteration is a copy of the blocks, chained latch to header.
// CHECK-LABEL: llvm.func @branchy(
// UPSTREAM-LABEL: llvm.func @branchy(
// UPSTREAM-NOT: llvm.alloca
// UPSTREAM: llvm.return
// CHECK: %[[A:.*]] = llvm.alloca
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[A]][0, 0]
// CHECK: llvm.cond_br %{{.*}}, ^[[CLAMP0:.*]], ^[[KEEP0:.*]]
// CHECK: ^[[CLAMP0]]:
// CHECK-NEXT: llvm.store %{{.*}}, %[[P0]]
// CHECK-NEXT: llvm.br ^[[NEXT:.*]]
// CHECK: ^[[KEEP0]]:
// CHECK-NEXT: llvm.store %{{.*}}, %[[P0]]
// CHECK-NEXT: llvm.br ^[[NEXT]]
// CHECK: ^[[NEXT]]:
// CHECK: llvm.getelementptr %[[A]][0, 1]
// CHECK: llvm.getelementptr %[[A]][0, 2]
// CHECK-NOT: llvm.icmp "ult"
// CHECK: llvm.return
llvm.func @branchy(%out: !llvm.ptr, %in: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c3 = llvm.mlir.constant(3 : i64) : i64
  %one = llvm.mlir.constant(1 : i32) : i32
  // expected-remark @+1 {{promoted to registers: 12 bytes; loops unrolled with 3 iterations}}
  %a = llvm.alloca %one x !llvm.array<3 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.br ^header(%c0 : i64)
^header(%k: i64):
  %src = llvm.getelementptr %in[%k] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  %v = llvm.load %src {alignment = 4 : i64} : !llvm.ptr -> i32
  %neg = llvm.icmp "slt" %v, %one : i32
  %p = llvm.getelementptr %a[0, %k] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<3 x i32>
  llvm.cond_br %neg, ^clamp, ^keep
^clamp:
  llvm.store %one, %p {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.br ^latch
^keep:
  llvm.store %v, %p {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.br ^latch
^latch:
  %n = llvm.add %k, %c1 : i64
  %d = llvm.icmp "ult" %n, %c3 : i64
  llvm.cond_br %d, ^header(%n : i64), ^exit
^exit:
  %q = llvm.getelementptr %a[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<3 x i32>
  %r = llvm.load %q {alignment = 4 : i64} : !llvm.ptr -> i32
  llvm.store %r, %out {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.return
}

// -----

// An index that no loop counts (a function argument), outside every loop:
// the store writes select(i == e, v, old) into each element it may reach,
// the load chooses among them. Four elements of a 16-byte array, from a
// GEP that steps over i32s.
// CHECK-LABEL: llvm.func @selects(
// UPSTREAM-LABEL: llvm.func @selects(
// UPSTREAM-NOT: llvm.alloca
// UPSTREAM: llvm.return
// CHECK-SAME: %[[I:[^:]*]]: i64, %[[V:[^:]*]]: i32)
// CHECK: %[[A:.*]] = llvm.alloca
// CHECK: %[[E0:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT: %[[P0:.*]] = llvm.getelementptr %[[A]][0] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK-NEXT: %[[C0:.*]] = llvm.icmp "eq" %[[I]], %[[E0]] : i64
// CHECK-COUNT-3: llvm.icmp "eq" %[[I]]
// CHECK: %[[OLD0:.*]] = llvm.load %[[P0]] {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK-NEXT: %[[NEW0:.*]] = llvm.select %[[C0]], %[[V]], %[[OLD0]] : i1, i32
// CHECK-NEXT: llvm.store %[[NEW0]], %[[P0]] {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK-COUNT-3: llvm.select
// CHECK-NOT: llvm.getelementptr %[[A]][%[[I]]]
// CHECK: %[[R0:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK: %[[R1:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK-NEXT: %[[S1:.*]] = llvm.select %{{.*}}, %[[R1]], %[[R0]] : i1, i32
// CHECK-COUNT-2: llvm.select
// CHECK-NOT: llvm.getelementptr %[[A]][%[[I]]]
// CHECK: llvm.return
llvm.func @selects(%i: i64, %v: i32) -> i32 {
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c3 = llvm.mlir.constant(3 : i64) : i64
  // expected-remark @+1 {{promoted to registers: 16 bytes; 2 dynamic access(es) as selects over 4 elements}}
  %a = llvm.alloca %c1 x !llvm.array<4 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %p = llvm.getelementptr %a[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  llvm.store %v, %p {alignment = 4 : i64} : i32, !llvm.ptr
  %j = llvm.xor %i, %c3 : i64
  %q = llvm.getelementptr %a[%j] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  %r = llvm.load %q {alignment = 4 : i64} : !llvm.ptr -> i32
  llvm.return %r : i32
}

// -----

// A GEP at a constant offset into a struct, with an i16 index: the
// candidates are the elements whose bytes stay inside the alloca, which
// LLVM IR allows to index from the array field (at byte 4 of the 12-byte
// struct) back into the i32 before it: -2 to 3.
// CHECK-LABEL: llvm.func @inner_array(
// UPSTREAM-LABEL: llvm.func @inner_array(
// UPSTREAM: llvm.alloca
// CHECK: llvm.mlir.constant(-2 : i16) : i16
// CHECK-COUNT-6: llvm.icmp "eq"
// CHECK-NOT: llvm.icmp
// CHECK: llvm.return
llvm.func @inner_array(%i: i16) -> i16 {
  %c1 = llvm.mlir.constant(1 : i32) : i32
  // expected-remark @+1 {{promoted to registers: 12 bytes; 1 dynamic access(es) as selects over 6 elements}}
  %a = llvm.alloca %c1 x !llvm.struct<(i32, array<4 x i16>)> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %f = llvm.getelementptr %a[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, array<4 x i16>)>
  %p = llvm.getelementptr %f[0, %i] : (!llvm.ptr, i16) -> !llvm.ptr, !llvm.array<4 x i16>
  %r = llvm.load %p {alignment = 2 : i64} : !llvm.ptr -> i16
  llvm.return %r : i16
}

// -----

// Both at once: a counted loop fills the array, and one read after it
// takes a thread-dependent element. The loop is unrolled and the read
// becomes selects over the eight elements.
// CHECK-LABEL: llvm.func @fill_then_pick(
// UPSTREAM-LABEL: llvm.func @fill_then_pick(
// UPSTREAM-NOT: llvm.alloca
// UPSTREAM: llvm.return
// CHECK-SAME: %[[N:[^:]*]]: i32)
// CHECK: %[[A:.*]] = llvm.alloca
// CHECK-NOT: llvm.cond_br
// CHECK: llvm.getelementptr %[[A]][0, 7]
// CHECK: llvm.br ^[[EXIT:.*]]
// CHECK: ^[[EXIT]]:
// CHECK-NEXT: %[[I:.*]] = llvm.and %[[N]]
// CHECK-COUNT-8: llvm.icmp "eq" %[[I]]
// CHECK-COUNT-7: llvm.select
// CHECK-NOT: llvm.getelementptr %[[A]][0, %[[I]]]
// CHECK: llvm.return
llvm.func @fill_then_pick(%n: i32) -> i32 {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c7 = llvm.mlir.constant(7 : i32) : i32
  %c8 = llvm.mlir.constant(8 : i32) : i32
  // expected-remark @+1 {{promoted to registers: 32 bytes; loops unrolled with 8 iterations; 1 dynamic access(es) as selects over 8 elements}}
  %a = llvm.alloca %c1 x !llvm.array<8 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.br ^loop(%c0 : i32)
^loop(%k: i32):
  %p = llvm.getelementptr %a[0, %k] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<8 x i32>
  %sq = llvm.mul %k, %k : i32
  llvm.store %sq, %p {alignment = 4 : i64} : i32, !llvm.ptr
  %next = llvm.add %k, %c1 : i32
  %more = llvm.icmp "slt" %next, %c8 : i32
  llvm.cond_br %more, ^loop(%next : i32), ^exit
^exit:
  %i = llvm.and %n, %c7 : i32
  %q = llvm.getelementptr %a[0, %i] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<8 x i32>
  %r = llvm.load %q {alignment = 4 : i64} : !llvm.ptr -> i32
  llvm.return %r : i32
}

// -----

// A device function that writes its byval parameter at constant offsets
// writes the .param itself, whose address PTX makes a .local copy (ptxas
// adds it to the frame). The parameter is copied whole into a slot of its
// own and every use moves there: SROA keeps it in registers, read with
// ld.param. The copy moves every leaf (and every byte of padding, issue
// 40: test/Conversion/PromoteLocalArrays/issue40-regressions.mlir). (A
// kernel's written byval parameter is lower-struct-args' copy; one written
// at a dynamic index stays, @poke.)
// CHECK-LABEL: llvm.func internal @scale(
// CHECK-SAME: %[[M:[^:]*]]: !llvm.ptr {{{.*}}llvm.byval
// CHECK: %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<"Mat4", (array<16 x f32>)> {alignment = 4 : i64}
// CHECK-NEXT: %[[V0:.*]] = llvm.load %[[M]] {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK-NEXT: llvm.store %[[V0]], %[[SLOT]] {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT: %[[F1:.*]] = llvm.getelementptr %[[M]][4] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT: %[[T1:.*]] = llvm.getelementptr %[[SLOT]][4] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT: %[[V1:.*]] = llvm.load %[[F1]] {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK-NEXT: llvm.store %[[V1]], %[[T1]] {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK: llvm.getelementptr %[[M]][60]
// CHECK-NOT: %[[M]]
// CHECK: llvm.store %{{.*}}, %[[SLOT]]
// CHECK: llvm.load %[[SLOT]] {{.*}} -> !llvm.struct<"Mat4", (array<16 x f32>)>
// (MLIR's sroa splits the slot to its array, which whole-aggregate loads
// keep from mem2reg; llc's SROA promotes it.)
// UPSTREAM-LABEL: llvm.func internal @scale(
// UPSTREAM: llvm.alloca
// expected-remark @+1 {{written byval parameter copied to registers: 64 bytes}}
llvm.func internal @scale(%m: !llvm.ptr {llvm.byval = !llvm.struct<"Mat4", (array<16 x f32>)>, llvm.align = 4 : i64}, %s: f32) -> !llvm.struct<"Mat4", (array<16 x f32>)> {
  %a = llvm.load %m {alignment = 4 : i64} : !llvm.ptr -> f32
  %b = llvm.fmul %a, %s : f32
  llvm.store %b, %m {alignment = 4 : i64} : f32, !llvm.ptr
  %v = llvm.load %m {alignment = 4 : i64} : !llvm.ptr -> !llvm.struct<"Mat4", (array<16 x f32>)>
  llvm.return %v : !llvm.struct<"Mat4", (array<16 x f32>)>
}
// CHECK-LABEL: llvm.func internal @poke(
// CHECK-NOT: llvm.alloca
// CHECK: llvm.return
// UPSTREAM-LABEL: llvm.func internal @poke(
llvm.func internal @poke(%m: !llvm.ptr {llvm.byval = !llvm.array<4 x f32>, llvm.align = 4 : i64}, %i: i32, %s: f32) -> f32 {
  %p = llvm.getelementptr %m[0, %i] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x f32>
  llvm.store %s, %p {alignment = 4 : i64} : f32, !llvm.ptr
  %a = llvm.load %m {alignment = 4 : i64} : !llvm.ptr -> f32
  llvm.return %a : f32
}
