// Regression tests of issue 40 for promote-local-arrays, each named after
// what it caught. Every kernel also runs under the differential harness
// (issue40-regressions.test), which compares every byte it writes.
// RUN: %ptxcc-opt %s -split-input-file --pass-pipeline='builtin.module(llvm.func(promote-local-arrays))' | FileCheck %s
// RUN: %ptxcc-opt %s -split-input-file --pass-pipeline='builtin.module(llvm.func(promote-local-arrays{promote-remarks=true}))' --verify-diagnostics -o %t.remarks.mlir
// The whole pipeline's output is valid PTX.
// RUN: %ptxcc-opt %s --ptxcc-pipeline | %to-llvmir | %llc-sm90 -o %t.ptx

// An `if` inside a counted loop whose value the latch merges (^join, the
// block that passes it, comes before ^then, which defines it, in the
// region), and a loop that leaves from its latch into the header of the
// loop around it (llm.c's layernorm_backward_kernel9, reduced). The
// unroller copied the blocks in region order and mapped each operand as it
// copied it: ^join's copy passed the first iteration's %y ("operand #0
// does not dominate this use"). Each copy now passes its own.
// CHECK-LABEL: llvm.func ptx_kernelcc @issue40_side_block_latch(
// CHECK-COUNT-8: llvm.fadd
// CHECK-NOT: llvm.fadd
// CHECK: llvm.return
llvm.func ptx_kernelcc @issue40_side_block_latch(%in: !llvm.ptr, %out: !llvm.ptr, %n: i32) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %c32 = llvm.mlir.constant(32 : i64) : i64
  %zero = llvm.mlir.constant(0 : i8) : i8
  %four = llvm.mlir.constant(4.0 : f32) : f32
  // expected-remark @+1 {{promoted to registers: 32 bytes; loops unrolled with 8 iterations}}
  %acc = llvm.alloca %c1 x !llvm.array<8 x f32> {alignment = 16 : i64} : (i32) -> !llvm.ptr
  "llvm.intr.memset"(%acc, %zero, %c32) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
  llvm.br ^outer(%c0 : i32)
^outer(%i: i32):
  %done = llvm.icmp "sge" %i, %n : i32
  llvm.cond_br %done, ^exit, ^inner(%c0 : i32)
^inner(%k: i32):
  %p = llvm.getelementptr %acc[0, %k] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %src = llvm.getelementptr %in[%k] : (!llvm.ptr, i32) -> !llvm.ptr, i32
  %word = llvm.load %src {alignment = 4 : i64} : !llvm.ptr -> i32
  %x = llvm.sitofp %word : i32 to f32
  %big = llvm.fcmp "ogt" %x, %four : f32
  llvm.cond_br %big, ^then, ^latch(%x : f32)
^join:
  llvm.br ^latch(%y : f32)
^latch(%v: f32):
  %old = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> f32
  %new = llvm.fadd %old, %v : f32
  llvm.store %new, %p {alignment = 4 : i64} : f32, !llvm.ptr
  %k1 = llvm.add %k, %c1 : i32
  %i1 = llvm.add %i, %c1 : i32
  %last = llvm.icmp "eq" %k1, %c8 : i32
  llvm.cond_br %last, ^outer(%i1 : i32), ^inner(%k1 : i32)
^then:
  %y = llvm.fmul %x, %four : f32
  llvm.br ^join
^exit:
  "llvm.intr.memcpy"(%out, %acc, %c32) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  llvm.return
}

// -----

// A loop with a `break`: each copy keeps its branch out (to the exit, with
// its own block arguments), and no value of the loop is used after it
// otherwise.
// CHECK-LABEL: llvm.func ptx_kernelcc @issue40_early_exit(
// CHECK-COUNT-4: llvm.cond_br %{{.*}}, ^[[EXIT:bb[0-9]+]](%{{.*}} : i32), ^
// CHECK-NOT: llvm.cond_br
// CHECK: ^[[EXIT]](%{{.*}}: i32):
llvm.func ptx_kernelcc @issue40_early_exit(%in: !llvm.ptr, %out: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  %c5 = llvm.mlir.constant(5 : i32) : i32
  %c16 = llvm.mlir.constant(16 : i64) : i64
  %zero = llvm.mlir.constant(0 : i8) : i8
  // expected-remark @+1 {{promoted to registers: 16 bytes; loops unrolled with 4 iterations}}
  %a = llvm.alloca %c1 x !llvm.array<4 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  "llvm.intr.memset"(%a, %zero, %c16) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
  llvm.br ^loop(%c0 : i32)
^loop(%k: i32):
  %src = llvm.getelementptr %in[%k] : (!llvm.ptr, i32) -> !llvm.ptr, i32
  %v = llvm.load %src {alignment = 4 : i64} : !llvm.ptr -> i32
  %stop = llvm.icmp "eq" %v, %c5 : i32
  llvm.cond_br %stop, ^exit(%k : i32), ^latch
^latch:
  %p = llvm.getelementptr %a[0, %k] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x i32>
  llvm.store %v, %p {alignment = 4 : i64} : i32, !llvm.ptr
  %next = llvm.add %k, %c1 : i32
  %done = llvm.icmp "eq" %next, %c4 : i32
  llvm.cond_br %done, ^exit(%c4 : i32), ^loop(%next : i32)
^exit(%count: i32):
  "llvm.intr.memcpy"(%out, %a, %c16) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  %last = llvm.getelementptr %out[4] : (!llvm.ptr) -> !llvm.ptr, i32
  llvm.store %count, %last {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.return
}

// -----

// A `bool` array (`i1` elements) cleared with 0xFF: the memset's stores
// write the byte 0xFF (as `i8`), not `i1 true` (0x01); the copy out reads
// the four bytes the loop does not write.
// CHECK-LABEL: llvm.func ptx_kernelcc @issue40_bool_memset(
// CHECK: llvm.alloca
// CHECK-NEXT: %[[FF:.*]] = llvm.mlir.constant(-1 : i8) : i8
// CHECK-NEXT: llvm.store %[[FF]], %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr
// CHECK-NOT: llvm.intr.memset
llvm.func ptx_kernelcc @issue40_bool_memset(%in: !llvm.ptr, %out: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  %c8 = llvm.mlir.constant(8 : i64) : i64
  %ff = llvm.mlir.constant(-1 : i8) : i8
  // expected-remark @+1 {{promoted to registers: 8 bytes; loops unrolled with 4 iterations}}
  %a = llvm.alloca %c1 x !llvm.array<8 x i1> {alignment = 1 : i64} : (i32) -> !llvm.ptr
  "llvm.intr.memset"(%a, %ff, %c8) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
  llvm.br ^loop(%c0 : i32)
^loop(%k: i32):
  %src = llvm.getelementptr %in[%k] : (!llvm.ptr, i32) -> !llvm.ptr, i32
  %v = llvm.load %src {alignment = 4 : i64} : !llvm.ptr -> i32
  %b = llvm.trunc %v : i32 to i1
  %p = llvm.getelementptr %a[0, %k] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<8 x i1>
  llvm.store %b, %p {alignment = 1 : i64} : i1, !llvm.ptr
  %next = llvm.add %k, %c1 : i32
  %done = llvm.icmp "eq" %next, %c4 : i32
  llvm.cond_br %done, ^exit, ^loop(%next : i32)
^exit:
  "llvm.intr.memcpy"(%out, %a, %c8) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  llvm.return
}

// -----

// A cleared array of `{i8, i32, i24}` (struct padding after the i8, the
// fourth byte of the i24): the memset writes every byte, the padding too.
// CHECK-LABEL: llvm.func ptx_kernelcc @issue40_memset_padding(
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i8, !llvm.ptr
// CHECK-NEXT: %[[P1:.*]] = llvm.getelementptr %{{.*}}[1] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT: llvm.store %{{.*}}, %[[P1]] {alignment = 1 : i64} : i8, !llvm.ptr
// CHECK-NEXT: %[[PAD:.*]] = llvm.mlir.constant(-23131 : i16) : i16
// CHECK-NEXT: %[[P2:.*]] = llvm.getelementptr %{{.*}}[2] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT: llvm.store %[[PAD]], %[[P2]] {alignment = 2 : i64} : i16, !llvm.ptr
// CHECK: %[[P11:.*]] = llvm.getelementptr %{{.*}}[11] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT: llvm.store %{{.*}}, %[[P11]] {alignment = 1 : i64} : i8, !llvm.ptr
// CHECK-NOT: llvm.intr.memset
llvm.func ptx_kernelcc @issue40_memset_padding(%in: !llvm.ptr, %out: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c2 = llvm.mlir.constant(2 : i32) : i32
  %c24 = llvm.mlir.constant(24 : i64) : i64
  %fill = llvm.mlir.constant(-91 : i8) : i8
  // expected-remark @+1 {{promoted to registers: 24 bytes; loops unrolled with 2 iterations}}
  %a = llvm.alloca %c1 x !llvm.array<2 x struct<(i8, i32, i24)>> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  "llvm.intr.memset"(%a, %fill, %c24) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
  llvm.br ^loop(%c0 : i32)
^loop(%k: i32):
  %src = llvm.getelementptr %in[%k] : (!llvm.ptr, i32) -> !llvm.ptr, i32
  %v = llvm.load %src {alignment = 4 : i64} : !llvm.ptr -> i32
  %c = llvm.trunc %v : i32 to i8
  %p = llvm.getelementptr %a[0, %k, 0] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<2 x struct<(i8, i32, i24)>>
  llvm.store %c, %p {alignment = 4 : i64} : i8, !llvm.ptr
  %next = llvm.add %k, %c1 : i32
  %done = llvm.icmp "eq" %next, %c2 : i32
  llvm.cond_br %done, ^exit, ^loop(%next : i32)
^exit:
  "llvm.intr.memcpy"(%out, %a, %c24) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  llvm.return
}

// -----

// A written byval parameter of a device function, copied into a slot SROA
// promotes: the copy moves the padding too (an i64 read over the `i1`
// field and its padding sees the caller's bytes), the `i1` as a byte.
// CHECK-LABEL: llvm.func internal @issue40_param_padding(
// CHECK-SAME: %[[M:[^:]*]]: !llvm.ptr {{{.*}}llvm.byval
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK-NEXT: %[[B:.*]] = llvm.load %[[M]] {alignment = 8 : i64} : !llvm.ptr -> i8
// CHECK-NEXT: llvm.store %[[B]], %[[SLOT]] {alignment = 8 : i64} : i8, !llvm.ptr
// CHECK-NEXT: %[[F1:.*]] = llvm.getelementptr %[[M]][1] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT: %[[T1:.*]] = llvm.getelementptr %[[SLOT]][1] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT: llvm.load %[[F1]] {alignment = 1 : i64} : !llvm.ptr -> i8
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr -> i16
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> i24
// CHECK: llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr -> i8
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> f64
// expected-remark @+1 {{written byval parameter copied to registers: 24 bytes}}
llvm.func internal @issue40_param_padding(%m: !llvm.ptr {llvm.byval = !llvm.struct<(i1, i32, i24, f64)>, llvm.align = 8 : i64}, %s: i32) -> i64 {
  %g = llvm.getelementptr %m[4] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %s, %g {alignment = 4 : i64} : i32, !llvm.ptr
  %v = llvm.load %m {alignment = 8 : i64} : !llvm.ptr -> i64
  llvm.return %v : i64
}
llvm.func ptx_kernelcc @issue40_param_padding_kernel(%in: !llvm.ptr, %out: !llvm.ptr, %s: i32) {
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c24 = llvm.mlir.constant(24 : i64) : i64
  %tmp = llvm.alloca %c1 x !llvm.struct<(i1, i32, i24, f64)> {alignment = 8 : i64} : (i32) -> !llvm.ptr
  "llvm.intr.memcpy"(%tmp, %in, %c24) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  %r = llvm.call @issue40_param_padding(%tmp, %s) : (!llvm.ptr, i32) -> i64
  llvm.store %r, %out {alignment = 8 : i64} : i64, !llvm.ptr
  llvm.return
}

// -----

// An `i1` index outside loops, on the select path: a GEP reads it as
// signed, so it reaches the elements -1 and 0 from its base (true is -1),
// each compared with a distinct `i1` constant. (The elements were numbered
// -2 to 1, and -2/0 and -1/1 made the same `i1` constants: the last match
// won.)
// CHECK-LABEL: llvm.func ptx_kernelcc @issue40_i1_index(
// CHECK: %[[TRUE:.*]] = llvm.mlir.constant(true) : i1
// CHECK: llvm.icmp "eq" %{{.*}}, %[[TRUE]] : i1
// CHECK: %[[FALSE:.*]] = llvm.mlir.constant(false) : i1
// CHECK: llvm.icmp "eq" %{{.*}}, %[[FALSE]] : i1
// CHECK-NOT: llvm.icmp "eq"
// CHECK: llvm.return
llvm.func ptx_kernelcc @issue40_i1_index(%in: !llvm.ptr, %out: !llvm.ptr, %n: i32) {
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c16 = llvm.mlir.constant(16 : i64) : i64
  // expected-remark @+1 {{promoted to registers: 16 bytes; 1 dynamic access(es) as selects over 2 elements}}
  %a = llvm.alloca %c1 x !llvm.array<4 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  "llvm.intr.memcpy"(%a, %in, %c16) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  %b = llvm.trunc %n : i32 to i1
  %base = llvm.getelementptr %a[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x i32>
  %p = llvm.getelementptr %base[%b] : (!llvm.ptr, i1) -> !llvm.ptr, i32
  %v = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> i32
  llvm.store %v, %out {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.return
}

// -----

// An `i2` index reaches -2 to 1 from its base.
// CHECK-LABEL: llvm.func ptx_kernelcc @issue40_i2_index(
// CHECK-COUNT-4: llvm.icmp "eq" %{{.*}}, %{{.*}} : i2
// CHECK-NOT: llvm.icmp "eq"
llvm.func ptx_kernelcc @issue40_i2_index(%in: !llvm.ptr, %out: !llvm.ptr, %n: i32) {
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c24 = llvm.mlir.constant(24 : i64) : i64
  // expected-remark @+1 {{promoted to registers: 24 bytes; 1 dynamic access(es) as selects over 4 elements}}
  %a = llvm.alloca %c1 x !llvm.array<6 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  "llvm.intr.memcpy"(%a, %in, %c24) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  %b = llvm.trunc %n : i32 to i2
  %base = llvm.getelementptr %a[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<6 x i32>
  %p = llvm.getelementptr %base[%b] : (!llvm.ptr, i2) -> !llvm.ptr, i32
  %v = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> i32
  llvm.store %v, %out {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.return
}

// -----

// An `i128` counter from -4 to 3: each copy's counter is a 128-bit
// constant (-4 was built as 2^64 - 4), and `c >> 64` is computed at 128
// bits (-1 for the negative ones).
// CHECK-LABEL: llvm.func ptx_kernelcc @issue40_i128_counter(
// CHECK: llvm.mlir.constant(-4 : i128) : i128
// CHECK: llvm.mlir.constant(-3 : i128) : i128
// CHECK: llvm.mlir.constant(3 : i128) : i128
// CHECK-NOT: 18446744073709551612
llvm.func ptx_kernelcc @issue40_i128_counter(%in: !llvm.ptr, %out: !llvm.ptr) {
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %start = llvm.mlir.constant(-4 : i128) : i128
  %one = llvm.mlir.constant(1 : i128) : i128
  %end = llvm.mlir.constant(4 : i128) : i128
  %sixty4 = llvm.mlir.constant(64 : i128) : i128
  %four = llvm.mlir.constant(4 : i32) : i32
  %c32 = llvm.mlir.constant(32 : i64) : i64
  // expected-remark @+1 {{promoted to registers: 32 bytes; loops unrolled with 8 iterations}}
  %a = llvm.alloca %c1 x !llvm.array<8 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.br ^loop(%start : i128)
^loop(%c: i128):
  %low = llvm.trunc %c : i128 to i32
  %index = llvm.add %low, %four : i32
  %src = llvm.getelementptr %in[%index] : (!llvm.ptr, i32) -> !llvm.ptr, i32
  %v = llvm.load %src {alignment = 4 : i64} : !llvm.ptr -> i32
  %high = llvm.ashr %c, %sixty4 : i128
  %h = llvm.trunc %high : i128 to i32
  %w = llvm.add %v, %h : i32
  %p = llvm.getelementptr %a[0, %index] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<8 x i32>
  llvm.store %w, %p {alignment = 4 : i64} : i32, !llvm.ptr
  %next = llvm.add %c, %one : i128
  %more = llvm.icmp "slt" %next, %end : i128
  llvm.cond_br %more, ^loop(%next : i128), ^exit
^exit:
  "llvm.intr.memcpy"(%out, %a, %c32) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  llvm.return
}

// -----

// An `i256` counter is refused: the evaluator computes at most 128 bits
// (its shifts wrapped modulo 128).
// CHECK-LABEL: llvm.func ptx_kernelcc @issue40_i256_counter(
// CHECK: llvm.cond_br
llvm.func ptx_kernelcc @issue40_i256_counter(%in: !llvm.ptr, %out: !llvm.ptr) {
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %start = llvm.mlir.constant(0 : i256) : i256
  %one = llvm.mlir.constant(1 : i256) : i256
  %end = llvm.mlir.constant(4 : i256) : i256
  %c16 = llvm.mlir.constant(16 : i64) : i64
  // expected-remark @+1 {{kept in local memory: the loop's trip count is not a constant, and selects on the index would run in a loop}}
  %a = llvm.alloca %c1 x !llvm.array<4 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.br ^loop(%start : i256)
^loop(%c: i256):
  %index = llvm.trunc %c : i256 to i32
  %p = llvm.getelementptr %a[0, %index] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x i32>
  llvm.store %index, %p {alignment = 4 : i64} : i32, !llvm.ptr
  %next = llvm.add %c, %one : i256
  %more = llvm.icmp "ult" %next, %end : i256
  llvm.cond_br %more, ^loop(%next : i256), ^exit
^exit:
  "llvm.intr.memcpy"(%out, %a, %c16) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  llvm.return
}
