// llc 22 expands every memcpy, memmove and memset longer than 64 bytes
// into a loop of one byte per iteration (PreISelIntrinsicLowering, before
// its SROA: the slot stays in local memory). The conversion expands the
// code's own memcpy and memset of a constant length above 64 bytes itself:
// into or out of a slot SROA breaks up, one integer access per field
// (SROA splits them and deletes the slot); elsewhere a loop of the widest
// access the alignment allows, a memset of a constant byte as at most 64
// stores. Not: 64 bytes or less (llc expands those inline), volatile ones,
// memmove, lengths that are not constants, fills of a variable byte,
// 1-aligned copies (the loop would be llc's own), and with llvm-opt-after
// (LLVM's SROA splits them). ptxas figures (ptxas 13.5, sm_90, -c): ptxcc
// against llc alone.
// RUN: %ptxcc-opt %s --split-input-file --ptxcc-pipeline | FileCheck %s
// RUN: %ptxcc-opt %s --split-input-file --ptxcc-pipeline='llvm-opt-after=true' | FileCheck %s --check-prefix=OPT
// RUN: %ptxcc-opt %s --ptxcc-pipeline | %to-llvmir | %llc-sm90 -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -c -v %t.ptx -o %t.o 2>&1 | FileCheck %s --check-prefix=SASS %}
// RUN: %to-llvmir %s | %llc-sm90 -o %t.llc.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -c -v %t.llc.ptx -o %t.llc.o 2>&1 | FileCheck %s --check-prefix=SASS-LLC %}

// (In the order ptxas lists the functions.) The struct SROA splits leaves
// no stack; the kept copy holds fewer registers than llc's byte loop.
// SASS-LABEL: Function properties for cleared_global
// SASS-NEXT: 0 bytes stack frame
// SASS-NEXT: Used 6 registers
// SASS-LABEL: Function properties for filled_global
// SASS-NEXT: 0 bytes stack frame
// SASS-NEXT: Used 8 registers
// SASS-LABEL: Function properties for filled_slot
// SASS-NEXT: 144 bytes stack frame
// SASS-NEXT: Used 24 registers
// SASS-LABEL: Function properties for kept_copy
// SASS-NEXT: 144 bytes stack frame
// SASS-NEXT: Used 24 registers
// SASS-LABEL: Function properties for copied_struct
// SASS-NEXT: 0 bytes stack frame
// SASS-NEXT: Used 14 registers
// SASS-LABEL: Function properties for zeroed_struct
// SASS-NEXT: 0 bytes stack frame
// SASS-NEXT: Used 8 registers
// SASS-LLC-LABEL: Function properties for cleared_global
// SASS-LLC-NEXT: 0 bytes stack frame
// SASS-LLC-NEXT: Used 6 registers
// SASS-LLC-LABEL: Function properties for filled_global
// SASS-LLC-NEXT: 0 bytes stack frame
// SASS-LLC-NEXT: Used 7 registers
// SASS-LLC-LABEL: Function properties for filled_slot
// SASS-LLC-NEXT: 144 bytes stack frame
// SASS-LLC-NEXT: Used 24 registers
// SASS-LLC-LABEL: Function properties for kept_copy
// SASS-LLC-NEXT: 144 bytes stack frame
// SASS-LLC-NEXT: Used 31 registers
// SASS-LLC-LABEL: Function properties for copied_struct
// SASS-LLC-NEXT: 80 bytes stack frame
// SASS-LLC-NEXT: Used 32 registers
// SASS-LLC-LABEL: Function properties for zeroed_struct
// SASS-LLC-NEXT: 72 bytes stack frame
// SASS-LLC-NEXT: Used 7 registers

// A zeroed struct read at two fields: one i32 store per field, which SROA
// folds into the loads.
// CHECK-LABEL: llvm.func ptx_kernelcc @zeroed_struct(
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK: %[[LOCAL:.*]] = llvm.addrspacecast %[[SLOT]] : !llvm.ptr to !llvm.ptr<5>
// CHECK: %[[VIEW:.*]] = llvm.addrspacecast %[[LOCAL]] : !llvm.ptr<5> to !llvm.ptr
// CHECK: %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[AT0:.*]] = llvm.getelementptr %[[VIEW]][0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT: llvm.store %[[Z]], %[[AT0]] {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK-COUNT-17: llvm.store %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK-NOT: llvm.intr.memset
// CHECK: llvm.return
// OPT-LABEL: llvm.func ptx_kernelcc @zeroed_struct(
// OPT: "llvm.intr.memset"
llvm.func ptx_kernelcc @zeroed_struct(%out: !llvm.ptr<1>, %x: f32) {
  %one = llvm.mlir.constant(1 : i32) : i32
  %n = llvm.mlir.constant(72 : i64) : i64
  %zero = llvm.mlir.constant(0 : i8) : i8
  %s = llvm.alloca %one x !llvm.array<18 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  "llvm.intr.memset"(%s, %zero, %n) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
  %p5 = llvm.getelementptr %s[0, 5] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<18 x f32>
  llvm.store %x, %p5 : f32, !llvm.ptr
  %p7 = llvm.getelementptr %s[0, 7] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<18 x f32>
  %a = llvm.load %p5 : !llvm.ptr -> f32
  %b = llvm.load %p7 : !llvm.ptr -> f32
  %c = llvm.fadd %a, %b : f32
  llvm.store %c, %out : f32, !llvm.ptr<1>
  llvm.return
}

// -----

// An 80-byte struct copied from global memory into a slot SROA breaks up:
// ten i64 loads, then ten stores (llc alone: 80 iterations of ld.global.b8
// / st.local.b8, and the slot stays).
// CHECK-LABEL: llvm.func ptx_kernelcc @copied_struct(
// CHECK-SAME: %{{[^:]*}}: !llvm.ptr<1>, %[[IN:[^:]*]]: !llvm.ptr<1>)
// CHECK: %[[VIEW:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<5> to !llvm.ptr
// CHECK: %[[FROM:.*]] = llvm.getelementptr %[[IN]][0] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %[[V0:.*]] = llvm.load %[[FROM]] {alignment = 8 : i64} : !llvm.ptr<1> -> i64
// CHECK-COUNT-9: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> i64
// CHECK: %[[TO:.*]] = llvm.getelementptr %[[VIEW]][0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT: llvm.store %[[V0]], %[[TO]] {alignment = 8 : i64} : i64, !llvm.ptr
// CHECK-COUNT-9: llvm.store %{{.*}} {alignment = 8 : i64} : i64, !llvm.ptr
// CHECK-NOT: llvm.intr.memcpy
// CHECK: llvm.return
llvm.func ptx_kernelcc @copied_struct(%out: !llvm.ptr<1>, %in: !llvm.ptr<1>) {
  %one = llvm.mlir.constant(1 : i32) : i32
  %n = llvm.mlir.constant(80 : i64) : i64
  %s = llvm.alloca %one x !llvm.array<10 x i64> {alignment = 8 : i64} : (i32) -> !llvm.ptr
  "llvm.intr.memcpy"(%s, %in, %n) <{arg_attrs = [{}, {llvm.align = 8 : i64}, {}], isVolatile = false}> : (!llvm.ptr, !llvm.ptr<1>, i64) -> ()
  %p1 = llvm.getelementptr %s[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<10 x i64>
  %p9 = llvm.getelementptr %s[0, 9] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<10 x i64>
  %a = llvm.load %p1 : !llvm.ptr -> i64
  %b = llvm.load %p9 : !llvm.ptr -> i64
  %c = llvm.add %a, %b : i64
  llvm.store %c, %out : i64, !llvm.ptr<1>
  llvm.return
}

// -----

// Slots passed to other code stay: a loop of one i64 per iteration (8 is
// both slots' alignment), not unrolled; the code after it moves to the
// block the loop exits to.
// CHECK-LABEL: llvm.func ptx_kernelcc @kept_copy(
// CHECK: %[[A:.*]] = llvm.alloca
// CHECK: %[[AL:.*]] = llvm.addrspacecast %[[A]] : !llvm.ptr to !llvm.ptr<5>
// CHECK: %[[B:.*]] = llvm.alloca
// CHECK: %[[BL:.*]] = llvm.addrspacecast %[[B]] : !llvm.ptr to !llvm.ptr<5>
// CHECK: llvm.call @use(%[[A]])
// CHECK-NEXT: %[[DST:.*]] = llvm.addrspacecast %[[BL]] : !llvm.ptr<5> to !llvm.ptr
// CHECK-NEXT: %[[SRC:.*]] = llvm.addrspacecast %[[AL]] : !llvm.ptr<5> to !llvm.ptr
// CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT: llvm.br ^[[LOOP:.*]](%[[ZERO]] : i64)
// CHECK-NEXT: ^[[LOOP]](%[[I:.*]]: i64):
// CHECK-NEXT: %[[FROM:.*]] = llvm.getelementptr %[[SRC]][%[[I]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT: %[[V:.*]] = llvm.load %[[FROM]] {alignment = 8 : i64} : !llvm.ptr -> i64
// CHECK-NEXT: %[[TO:.*]] = llvm.getelementptr %[[DST]][%[[I]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT: llvm.store %[[V]], %[[TO]] {alignment = 8 : i64} : i64, !llvm.ptr
// CHECK-NEXT: %[[STEP:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK-NEXT: %[[NEXT:.*]] = llvm.add %[[I]], %[[STEP]] : i64
// CHECK-NEXT: %[[END:.*]] = llvm.mlir.constant(72 : i64) : i64
// CHECK-NEXT: %[[MORE:.*]] = llvm.icmp "ult" %[[NEXT]], %[[END]] : i64
// CHECK-NEXT: llvm.cond_br %[[MORE]], ^[[LOOP]](%[[NEXT]] : i64), ^[[REST:.*]] {loop_annotation =
// CHECK-NEXT: ^[[REST]]:
// CHECK-NEXT: llvm.call @use(%[[B]])
llvm.func @use(!llvm.ptr)
llvm.func ptx_kernelcc @kept_copy(%x: i64) {
  %one = llvm.mlir.constant(1 : i32) : i32
  %n = llvm.mlir.constant(72 : i64) : i64
  %a = llvm.alloca %one x !llvm.array<9 x i64> {alignment = 8 : i64} : (i32) -> !llvm.ptr
  %b = llvm.alloca %one x !llvm.array<9 x i64> {alignment = 8 : i64} : (i32) -> !llvm.ptr
  llvm.call @use(%a) : (!llvm.ptr) -> ()
  "llvm.intr.memcpy"(%b, %a, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  llvm.call @use(%b) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

// A 16-aligned slot zeroed before a call: nine v4 stores of zeros, which
// hold no register.
// CHECK-LABEL: llvm.func ptx_kernelcc @filled_slot(
// CHECK: %[[VIEW:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<5> to !llvm.ptr
// CHECK: %[[Z:.*]] = llvm.mlir.constant(dense<0> : vector<4xi32>) : vector<4xi32>
// CHECK: %[[AT:.*]] = llvm.getelementptr %[[VIEW]][0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT: llvm.store %[[Z]], %[[AT]] {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr
// CHECK-COUNT-8: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr
// CHECK-NEXT: llvm.call @keep
llvm.func @keep(!llvm.ptr)
llvm.func ptx_kernelcc @filled_slot(%x: i64) {
  %one = llvm.mlir.constant(1 : i32) : i32
  %n = llvm.mlir.constant(144 : i64) : i64
  %z = llvm.mlir.constant(0 : i8) : i8
  %a = llvm.alloca %one x !llvm.array<36 x f32> {alignment = 16 : i64} : (i32) -> !llvm.ptr
  "llvm.intr.memset"(%a, %z, %n) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
  llvm.call @keep(%a) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

// 1002 bytes of 7 in global memory, 4-aligned: 250 iterations of one i32
// 0x07070707, then an i16 for the last two bytes.
// CHECK-LABEL: llvm.func ptx_kernelcc @filled_global(
// CHECK-SAME: %[[OUT:[^:]*]]: !llvm.ptr<1>)
// CHECK: %[[V:.*]] = llvm.mlir.constant(117901063 : i32) : i32
// CHECK: ^[[LOOP:.*]](%[[I:.*]]: i64):
// CHECK-NEXT: %[[TO:.*]] = llvm.getelementptr %[[OUT]][%[[I]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %[[V]], %[[TO]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK: %[[END:.*]] = llvm.mlir.constant(1000 : i64) : i64
// CHECK: llvm.cond_br
// CHECK-NEXT: ^{{[a-z0-9]+}}:
// CHECK-NEXT: %[[TAIL:.*]] = llvm.mlir.constant(1799 : i16) : i16
// CHECK-NEXT: %[[LAST:.*]] = llvm.getelementptr %[[OUT]][1000] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %[[TAIL]], %[[LAST]] {alignment = 2 : i64} : i16, !llvm.ptr<1>
// CHECK-NEXT: llvm.return
llvm.func ptx_kernelcc @filled_global(%out: !llvm.ptr<1>) {
  %n = llvm.mlir.constant(1002 : i64) : i64
  %z = llvm.mlir.constant(7 : i8) : i8
  "llvm.intr.memset"(%out, %z, %n) <{arg_attrs = [{llvm.align = 4 : i64}, {}, {}], isVolatile = false}> : (!llvm.ptr<1>, i8, i64) -> ()
  llvm.return
}

// -----

// Left to llc: 64 bytes (expanded inline with the alignment's widths),
// volatile, memmove, a length or a byte that is not a constant, and a
// 1-aligned source.
// CHECK-LABEL: llvm.func ptx_kernelcc @left(
// CHECK: "llvm.intr.memcpy"(%{{.*}}) <{{.*}}isVolatile = false}> : (!llvm.ptr<1>, !llvm.ptr<1>, i64) -> ()
// CHECK-NEXT: "llvm.intr.memcpy"(%{{.*}}) <{{.*}}isVolatile = true}>
// CHECK-NEXT: "llvm.intr.memmove"
// CHECK-NEXT: "llvm.intr.memcpy"(%{{.*}}, %{{.*}}, %[[N:[^)]*]])
// CHECK-NEXT: "llvm.intr.memset"(%{{.*}}, %[[B:[^,]*]], %{{.*}})
// CHECK-NEXT: "llvm.intr.memcpy"
// CHECK-NEXT: llvm.return
llvm.func ptx_kernelcc @left(%out: !llvm.ptr<1>, %in: !llvm.ptr<1>, %len: i64, %b: i8) {
  %c64 = llvm.mlir.constant(64 : i64) : i64
  %c80 = llvm.mlir.constant(80 : i64) : i64
  "llvm.intr.memcpy"(%out, %in, %c64) <{arg_attrs = [{llvm.align = 8 : i64}, {llvm.align = 8 : i64}, {}], isVolatile = false}> : (!llvm.ptr<1>, !llvm.ptr<1>, i64) -> ()
  "llvm.intr.memcpy"(%out, %in, %c80) <{arg_attrs = [{llvm.align = 8 : i64}, {llvm.align = 8 : i64}, {}], isVolatile = true}> : (!llvm.ptr<1>, !llvm.ptr<1>, i64) -> ()
  "llvm.intr.memmove"(%out, %in, %c80) <{arg_attrs = [{llvm.align = 8 : i64}, {llvm.align = 8 : i64}, {}], isVolatile = false}> : (!llvm.ptr<1>, !llvm.ptr<1>, i64) -> ()
  "llvm.intr.memcpy"(%out, %in, %len) <{arg_attrs = [{llvm.align = 8 : i64}, {llvm.align = 8 : i64}, {}], isVolatile = false}> : (!llvm.ptr<1>, !llvm.ptr<1>, i64) -> ()
  "llvm.intr.memset"(%out, %b, %c80) <{arg_attrs = [{llvm.align = 8 : i64}, {}, {}], isVolatile = false}> : (!llvm.ptr<1>, i8, i64) -> ()
  "llvm.intr.memcpy"(%out, %in, %c80) <{arg_attrs = [{llvm.align = 8 : i64}, {}, {}], isVolatile = false}> : (!llvm.ptr<1>, !llvm.ptr<1>, i64) -> ()
  llvm.return
}

// -----

// 100 zero bytes, 4-aligned (a Warp tile kernel's adjoint): 25 i32 stores
// of zero, no loop (llc's byte loop took 4 fewer registers than a loop of
// i32 stores in that kernel, which ptxas was told not to unroll).
// CHECK-LABEL: llvm.func ptx_kernelcc @cleared_global(
// CHECK-SAME: %[[OUT:[^:]*]]: !llvm.ptr<1>)
// CHECK: %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[AT:.*]] = llvm.getelementptr %[[OUT]][0] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %[[Z]], %[[AT]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-COUNT-24: llvm.store %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT: llvm.return
llvm.func ptx_kernelcc @cleared_global(%out: !llvm.ptr<1>) {
  %n = llvm.mlir.constant(100 : i64) : i64
  %z = llvm.mlir.constant(0 : i8) : i8
  "llvm.intr.memset"(%out, %z, %n) <{arg_attrs = [{llvm.align = 4 : i64}, {}, {}], isVolatile = false}> : (!llvm.ptr<1>, i8, i64) -> ()
  llvm.return
}
