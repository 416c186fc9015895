// convert-ptxcc-to-llvm: every ptxcc op becomes LLVM-dialect ops, and no
// ptxcc op remains.
// RUN: %ptxcc-opt %s --split-input-file --convert-ptxcc-to-llvm | FileCheck %s
// RUN: %ptxcc-opt %s --split-input-file --convert-ptxcc-to-llvm='vector-copy=false' | FileCheck %s --check-prefix=SCALAR
// RUN: %ptxcc-opt %s --split-input-file --convert-ptxcc-to-llvm='inline-copy-threshold=16' | FileCheck %s --check-prefix=LOOP
// RUN: %ptxcc-opt %s --split-input-file --pass-pipeline='builtin.module(llvm.func(convert-ptxcc-to-llvm))' | FileCheck %s

// A load at a constant offset is a byte GEP plus a load from param space with
// the op's alignment; offset 0 needs no GEP.
// CHECK-LABEL: llvm.func ptx_kernelcc @load_param(
// CHECK-SAME: %[[S:[^:]*]]: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<(f64, i8, array<4 x i32>)>},
// CHECK-NOT: nvvm.grid_constant
// CHECK: %[[P:.*]] = llvm.addrspacecast %[[S]] : !llvm.ptr to !llvm.ptr<101>
// CHECK-NEXT: %[[F:.*]] = llvm.load %[[P]] {alignment = 8 : i64} : !llvm.ptr<101> -> f64
// CHECK-NEXT: %[[B_ADDR:.*]] = llvm.getelementptr %[[P]][8] : (!llvm.ptr<101>) -> !llvm.ptr<101>, i8
// CHECK-NEXT: %[[B:.*]] = llvm.load %[[B_ADDR]] {alignment = 8 : i64} : !llvm.ptr<101> -> i8
// CHECK-NEXT: %[[A_ADDR:.*]] = llvm.getelementptr %[[P]][24] : (!llvm.ptr<101>) -> !llvm.ptr<101>, i8
// CHECK-NEXT: %[[A:.*]] = llvm.load %[[A_ADDR]] {alignment = 4 : i64} : !llvm.ptr<101> -> i32
// CHECK-NOT: ptxcc.
// CHECK: llvm.return
llvm.func ptx_kernelcc @load_param(%s: !llvm.ptr {llvm.byval = !llvm.struct<(f64, i8, array<4 x i32>)>, llvm.align = 8 : i64}, %out: !llvm.ptr) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  %f = "ptxcc.load_param"(%p) {offset = 0 : i64, alignment = 8 : i64} : (!llvm.ptr<101>) -> f64
  %b = "ptxcc.load_param"(%p) {offset = 8 : i64, alignment = 8 : i64} : (!llvm.ptr<101>) -> i8
  %a = "ptxcc.load_param"(%p) {offset = 24 : i64, alignment = 4 : i64} : (!llvm.ptr<101>) -> i32
  llvm.store %f, %out : f64, !llvm.ptr
  llvm.store %b, %out : i8, !llvm.ptr
  llvm.store %a, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// The cast-only path: one addrspacecast, and the parameter becomes a grid
// constant (with nvvm.kernel on the function) so that llc emits cvta.param
// instead of copying the struct. Only the converted parameter is marked.
// CHECK-LABEL: llvm.func ptx_kernelcc @param_to_generic(
// CHECK-SAME: %[[S:[^:]*]]: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<(f64, i8, array<4 x i32>)>, nvvm.grid_constant},
// CHECK-SAME: %{{[^:]*}}: !llvm.ptr {llvm.align = 4 : i64, llvm.byval = i32})
// CHECK-SAME: attributes {nvvm.kernel}
// CHECK: %[[P:.*]] = llvm.addrspacecast %[[S]] : !llvm.ptr to !llvm.ptr<101>
// CHECK-NEXT: %[[G:.*]] = llvm.addrspacecast %[[P]] : !llvm.ptr<101> to !llvm.ptr
// CHECK-NEXT: llvm.call @consume(%[[G]])
llvm.func ptx_kernelcc @param_to_generic(%s: !llvm.ptr {llvm.byval = !llvm.struct<(f64, i8, array<4 x i32>)>, llvm.align = 8 : i64},
                                          %t: !llvm.ptr {llvm.byval = i32, llvm.align = 4 : i64}) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  %g = "ptxcc.param_to_generic"(%p) : (!llvm.ptr<101>) -> !llvm.ptr
  llvm.call @consume(%g) : (!llvm.ptr) -> ()
  llvm.return
}
llvm.func @consume(!llvm.ptr)

// -----

// A field address escapes: the cast goes through the GEP back to the same
// parameter, and a function marked nvvm.kernel (MLIR's GPU lowering) counts
// as a kernel too.
// CHECK-LABEL: llvm.func @param_to_generic_field(
// CHECK-SAME: %{{[^:]*}}: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.array<4 x i64>, nvvm.grid_constant})
// CHECK: %[[F:.*]] = llvm.getelementptr %{{.*}}[16] : (!llvm.ptr<101>) -> !llvm.ptr<101>, i8
// CHECK-NEXT: llvm.addrspacecast %[[F]] : !llvm.ptr<101> to !llvm.ptr
llvm.func @param_to_generic_field(%s: !llvm.ptr {llvm.byval = !llvm.array<4 x i64>, llvm.align = 8 : i64}) attributes {nvvm.kernel} {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  %f = llvm.getelementptr %p[16] : (!llvm.ptr<101>) -> !llvm.ptr<101>, i8
  %g = "ptxcc.param_to_generic"(%f) : (!llvm.ptr<101>) -> !llvm.ptr
  llvm.call @consume(%g) : (!llvm.ptr) -> ()
  llvm.return
}
llvm.func @consume(!llvm.ptr)

// -----

// NVPTX cannot cast param to global directly: the conversion goes through
// the generic space (cvta.param, then cvta.to.global).
// CHECK-LABEL: llvm.func ptx_kernelcc @param_to_global(
// CHECK-SAME: nvvm.grid_constant
// CHECK: %[[P:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<101>
// CHECK-NEXT: %[[G:.*]] = llvm.addrspacecast %[[P]] : !llvm.ptr<101> to !llvm.ptr
// CHECK-NEXT: %[[GL:.*]] = llvm.addrspacecast %[[G]] : !llvm.ptr to !llvm.ptr<1>
// CHECK-NEXT: llvm.call @consume_global(%[[GL]])
llvm.func ptx_kernelcc @param_to_global(%s: !llvm.ptr {llvm.byval = !llvm.array<4 x i64>, llvm.align = 8 : i64}) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  %g = "ptxcc.param_to_global"(%p) : (!llvm.ptr<101>) -> !llvm.ptr<1>
  llvm.call @consume_global(%g) : (!llvm.ptr<1>) -> ()
  llvm.return
}
llvm.func @consume_global(!llvm.ptr<1>)

// -----

// CHECK-LABEL: llvm.func @generic_to_as(
// CHECK-SAME: %[[G:[^:]*]]: !llvm.ptr)
// CHECK-NEXT: %[[S:.*]] = llvm.addrspacecast %[[G]] : !llvm.ptr to !llvm.ptr<3>
// CHECK-NEXT: llvm.load %[[S]]
llvm.func @generic_to_as(%g: !llvm.ptr) -> i32 {
  %s = "ptxcc.generic_to_as"(%g) : (!llvm.ptr) -> !llvm.ptr<3>
  %v = llvm.load %s : !llvm.ptr<3> -> i32
  llvm.return %v : i32
}

// -----

// A 16-byte aligned 40-byte copy: two v4 accesses and an i64 for the tail
// (a v2.b32 held more registers in SASS; scalars without vector-copy; above the inline threshold a loop of one v4
// access per iteration, the tail unrolled after it). The
// local slot is addressed through a generic cast: llc 22's NVPTXLowerAlloca
// breaks GEPs on an addrspace(5) alloca.
// CHECK-LABEL: llvm.func ptx_kernelcc @copy_param(
// CHECK: %[[P:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<101>
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK-NEXT: %[[DST:.*]] = llvm.addrspacecast %[[SLOT]] : !llvm.ptr<5> to !llvm.ptr
// CHECK-NEXT: %[[V0:.*]] = llvm.load %[[P]] {alignment = 16 : i64} : !llvm.ptr<101> -> vector<4xi32>
// CHECK-NEXT: %[[A1:.*]] = llvm.getelementptr %[[P]][16]
// CHECK-NEXT: %[[V1:.*]] = llvm.load %[[A1]] {alignment = 16 : i64} : !llvm.ptr<101> -> vector<4xi32>
// CHECK-NEXT: %[[A2:.*]] = llvm.getelementptr %[[P]][32]
// CHECK-NEXT: %[[V2:.*]] = llvm.load %[[A2]] {alignment = 8 : i64} : !llvm.ptr<101> -> i64
// CHECK-NEXT: llvm.store %[[V0]], %[[DST]] {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr
// CHECK-NEXT: %[[D1:.*]] = llvm.getelementptr %[[DST]][16] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT: llvm.store %[[V1]], %[[D1]] {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr
// CHECK-NEXT: %[[D2:.*]] = llvm.getelementptr %[[DST]][32] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT: llvm.store %[[V2]], %[[D2]] {alignment = 8 : i64} : i64, !llvm.ptr
// CHECK-NOT: ptxcc.copy_param
// SCALAR-LABEL: llvm.func ptx_kernelcc @copy_param(
// SCALAR-COUNT-5: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<101> -> i64
// SCALAR-COUNT-5: llvm.store %{{.*}} {alignment = 8 : i64} : i64, !llvm.ptr
// SCALAR-NOT: vector
// LOOP-LABEL: llvm.func ptx_kernelcc @copy_param(
// LOOP: %[[P:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<101>
// LOOP: %[[SLOT:.*]] = llvm.alloca
// LOOP-NEXT: %[[DST:.*]] = llvm.addrspacecast %[[SLOT]] : !llvm.ptr<5> to !llvm.ptr
// LOOP-NEXT: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// LOOP-NEXT: llvm.br ^[[LOOP:bb[0-9]+]](%[[ZERO]] : i64)
// LOOP-NEXT: ^[[LOOP]](%[[I:.*]]: i64):
// LOOP-NEXT: %[[S:.*]] = llvm.getelementptr %[[P]][%[[I]]] : (!llvm.ptr<101>, i64) -> !llvm.ptr<101>, i8
// LOOP-NEXT: %[[V:.*]] = llvm.load %[[S]] {alignment = 16 : i64} : !llvm.ptr<101> -> vector<4xi32>
// LOOP-NEXT: %[[D:.*]] = llvm.getelementptr %[[DST]][%[[I]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// LOOP-NEXT: llvm.store %[[V]], %[[D]] {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr
// LOOP-NEXT: %[[STEP:.*]] = llvm.mlir.constant(16 : i64) : i64
// LOOP-NEXT: %[[NEXT:.*]] = llvm.add %[[I]], %[[STEP]] : i64
// LOOP-NEXT: %[[END:.*]] = llvm.mlir.constant(32 : i64) : i64
// LOOP-NEXT: %[[MORE:.*]] = llvm.icmp "ult" %[[NEXT]], %[[END]] : i64
// LOOP-NEXT: llvm.cond_br %[[MORE]], ^[[LOOP]](%[[NEXT]] : i64), ^[[REST:bb[0-9]+]]
// LOOP-NEXT: ^[[REST]]:
// LOOP-NEXT: %[[TS:.*]] = llvm.getelementptr %[[P]][32] : (!llvm.ptr<101>) -> !llvm.ptr<101>, i8
// LOOP-NEXT: %[[T:.*]] = llvm.load %[[TS]] {alignment = 8 : i64} : !llvm.ptr<101> -> i64
// LOOP-NEXT: %[[TD:.*]] = llvm.getelementptr %[[DST]][32] : (!llvm.ptr) -> !llvm.ptr, i8
// LOOP-NEXT: llvm.store %[[T]], %[[TD]] {alignment = 8 : i64} : i64, !llvm.ptr
// LOOP-NEXT: %[[G:.*]] = llvm.addrspacecast %[[SLOT]] : !llvm.ptr<5> to !llvm.ptr
// LOOP-NEXT: llvm.call @consume(%[[G]])
// LOOP-NOT: memcpy
llvm.func ptx_kernelcc @copy_param(%s: !llvm.ptr {llvm.byval = !llvm.array<5 x i64>, llvm.align = 16 : i64}) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  %one = llvm.mlir.constant(1 : i32) : i32
  %slot = llvm.alloca %one x !llvm.array<5 x i64> {alignment = 16 : i64} : (i32) -> !llvm.ptr<5>
  "ptxcc.copy_param"(%p, %slot) {size = 40 : i64, alignment = 16 : i64} : (!llvm.ptr<101>, !llvm.ptr<5>) -> ()
  %g = llvm.addrspacecast %slot : !llvm.ptr<5> to !llvm.ptr
  llvm.call @consume(%g) : (!llvm.ptr) -> ()
  llvm.return
}
llvm.func @consume(!llvm.ptr)

// -----

// A copy into a generic slot needs no cast; 4-byte alignment gives i32
// accesses and an i16 tail.
// CHECK-LABEL: llvm.func ptx_kernelcc @copy_param_generic_slot(
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK-NOT: llvm.addrspacecast %[[SLOT]]
// CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<101> -> i32
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<101> -> i16
// CHECK: llvm.store %{{.*}}, %[[SLOT]] {alignment = 4 : i64} : i32, !llvm.ptr
llvm.func ptx_kernelcc @copy_param_generic_slot(%s: !llvm.ptr {llvm.byval = !llvm.array<5 x i16>, llvm.align = 4 : i64}) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  %one = llvm.mlir.constant(1 : i32) : i32
  %slot = llvm.alloca %one x !llvm.array<5 x i16> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  "ptxcc.copy_param"(%p, %slot) {size = 10 : i64, alignment = 4 : i64} : (!llvm.ptr<101>, !llvm.ptr) -> ()
  llvm.call @consume(%slot) : (!llvm.ptr) -> ()
  llvm.return
}
llvm.func @consume(!llvm.ptr)

// -----

// A copy into a slot llc's SROA can break up (only loaded, stored and
// copied at constant offsets, never let out of the function; loads through
// a select count) is made of integers of at most 8 bytes, whatever its
// alignment and size: SROA splits them along the fields and deletes the
// ones nothing reads, as it does with llc's own memcpy. Vectors straddled
// the fields and kept the slot in local memory (fuzz seed 144: 16 bytes
// where llc alone has 8), and above the inline threshold a memcpy from
// param space became a byte loop before SROA (fuzz seed 600: 408 bytes
// where llc alone has 120).
// CHECK-LABEL: llvm.func ptx_kernelcc @copy_param_promotable(
// CHECK-COUNT-5: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<101> -> i64
// CHECK-NOT: vector
// CHECK-NOT: llvm.intr.memcpy
// LOOP-LABEL: llvm.func ptx_kernelcc @copy_param_promotable(
// LOOP-COUNT-5: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<101> -> i64
// LOOP-NOT: llvm.intr.memcpy
llvm.func ptx_kernelcc @copy_param_promotable(%s: !llvm.ptr {llvm.byval = !llvm.array<5 x i64>, llvm.align = 16 : i64}, %c: i1, %out: !llvm.ptr) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  %one = llvm.mlir.constant(1 : i32) : i32
  %slot = llvm.alloca %one x !llvm.array<5 x i64> {alignment = 16 : i64} : (i32) -> !llvm.ptr
  "ptxcc.copy_param"(%p, %slot) {size = 40 : i64, alignment = 16 : i64} : (!llvm.ptr<101>, !llvm.ptr) -> ()
  %x = llvm.mlir.constant(7 : i64) : i64
  %f = llvm.getelementptr %slot[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<5 x i64>
  llvm.store %x, %f : i64, !llvm.ptr
  %g = llvm.getelementptr %slot[0, 3] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<5 x i64>
  %either = llvm.select %c, %f, %g : i1, !llvm.ptr
  %v = llvm.load %either : !llvm.ptr -> i64
  llvm.store %v, %out : i64, !llvm.ptr
  llvm.return
}

// -----

// A generic pointer field of such a slot is copied as a pointer, not as
// an i64: llc marks every pointer it loads from a kernel's byval parameter
// global, and after SROA the field's uses see that mark, where an i64 gave
// them an inttoptr, generic (test/Pipeline/written-param-pointer-global.mlir).
// CHECK-LABEL: llvm.func ptx_kernelcc @copy_param_pointer_field(
// CHECK: %[[DATA:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<101> -> !llvm.ptr
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<101> -> i64
// CHECK: llvm.store %[[DATA]], %{{.*}} {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
llvm.func ptx_kernelcc @copy_param_pointer_field(%s: !llvm.ptr {llvm.byval = !llvm.struct<(ptr, i64)>, llvm.align = 8 : i64}, %v: f32) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  %one = llvm.mlir.constant(1 : i32) : i32
  %slot = llvm.alloca %one x !llvm.struct<(ptr, i64)> {alignment = 8 : i64} : (i32) -> !llvm.ptr
  "ptxcc.copy_param"(%p, %slot) {size = 16 : i64, alignment = 8 : i64} : (!llvm.ptr<101>, !llvm.ptr) -> ()
  %n = llvm.getelementptr %slot[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, i64)>
  %z = llvm.mlir.constant(0 : i64) : i64
  llvm.store %z, %n : i64, !llvm.ptr
  %data = llvm.load %slot : !llvm.ptr -> !llvm.ptr
  %old = llvm.atomicrmw fadd %data, %v seq_cst : !llvm.ptr, f32
  llvm.return
}

// -----

// What is inlined is bounded by registers as well as bytes: ptxas issues an
// inline copy's loads before its first store, so each access holds its
// width in registers (copy_param.rs, MAX_INLINE_COPY_REGISTERS = 16). 64
// bytes 16-aligned: four v4 pairs, inline. 80 bytes: the copy loop (ptxas
// held 32 registers for a 128-byte inline copy where the loop takes 12).
// 38 bytes 1-aligned: 38 single bytes would hold 38 registers (51 in ptxas
// where llc's copy takes 32), so a loop of one byte per iteration; it
// needed llc's memcpy before, which llc expands inline for small sizes.
// CHECK-LABEL: llvm.func ptx_kernelcc @copy_sizes(
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<101> -> vector<4xi32>
// CHECK-NOT: llvm.cond_br
// CHECK: llvm.call @consume3(
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<101> -> vector<4xi32>
// CHECK: llvm.cond_br %{{.*}}, ^{{.*}}, ^{{.*}} {loop_annotation = #{{.*}}}
// CHECK: llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr<101> -> i8
// CHECK: llvm.cond_br %{{.*}}, ^{{.*}}, ^{{.*}} {loop_annotation = #{{.*}}}
// CHECK-NOT: llvm.intr.memcpy
// CHECK: llvm.return
llvm.func ptx_kernelcc @copy_sizes(%a: !llvm.ptr {llvm.byval = !llvm.array<64 x i8>, llvm.align = 16 : i64}, %b: !llvm.ptr {llvm.byval = !llvm.array<80 x i8>, llvm.align = 16 : i64}, %c: !llvm.ptr {llvm.byval = !llvm.array<38 x i8>}) {
  %one = llvm.mlir.constant(1 : i32) : i32
  %pa = llvm.addrspacecast %a : !llvm.ptr to !llvm.ptr<101>
  %pb = llvm.addrspacecast %b : !llvm.ptr to !llvm.ptr<101>
  %pc = llvm.addrspacecast %c : !llvm.ptr to !llvm.ptr<101>
  %sa = llvm.alloca %one x !llvm.array<64 x i8> {alignment = 16 : i64} : (i32) -> !llvm.ptr<5>
  %sb = llvm.alloca %one x !llvm.array<80 x i8> {alignment = 16 : i64} : (i32) -> !llvm.ptr<5>
  %sc = llvm.alloca %one x !llvm.array<38 x i8> {alignment = 1 : i64} : (i32) -> !llvm.ptr<5>
  "ptxcc.copy_param"(%pa, %sa) {size = 64 : i64, alignment = 16 : i64} : (!llvm.ptr<101>, !llvm.ptr<5>) -> ()
  %ga = llvm.addrspacecast %sa : !llvm.ptr<5> to !llvm.ptr
  %gb = llvm.addrspacecast %sb : !llvm.ptr<5> to !llvm.ptr
  %gc = llvm.addrspacecast %sc : !llvm.ptr<5> to !llvm.ptr
  llvm.call @consume3(%ga, %gb, %gc) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  "ptxcc.copy_param"(%pb, %sb) {size = 80 : i64, alignment = 16 : i64} : (!llvm.ptr<101>, !llvm.ptr<5>) -> ()
  "ptxcc.copy_param"(%pc, %sc) {size = 38 : i64, alignment = 1 : i64} : (!llvm.ptr<101>, !llvm.ptr<5>) -> ()
  llvm.call @consume3(%ga, %gb, %gc) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  llvm.return
}
llvm.func @consume3(!llvm.ptr, !llvm.ptr, !llvm.ptr)

// -----

// A copy loop in the entry block leaves there the allocas of constant size
// that follow the copy, with their constants: an alloca outside the entry
// block is a dynamic one to llc, which then kept a pointer slot its own
// frame drops (fuzz seed 1003: 88 bytes of stack where llc alone has 80).
// The one whose size is computed after the copy moves with the rest.
// CHECK-LABEL: llvm.func ptx_kernelcc @copy_then_allocas(
// CHECK: llvm.alloca %{{.*}} x !llvm.array<80 x i8>
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[SLOT:.*]] = llvm.alloca %[[ONE]] x !llvm.ptr {alignment = 8 : i64}
// CHECK: llvm.br ^[[BODY:bb[0-9]+]](
// CHECK: ^[[BODY]](
// CHECK: llvm.cond_br
// CHECK: llvm.add %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: llvm.alloca %{{.*}} x i8
// CHECK: llvm.store %{{.*}}, %[[SLOT]]
llvm.func ptx_kernelcc @copy_then_allocas(%s: !llvm.ptr {llvm.byval = !llvm.array<80 x i8>, llvm.align = 16 : i64}, %n: i32) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  %k = llvm.mlir.constant(1 : i32) : i32
  %copy = llvm.alloca %k x !llvm.array<80 x i8> {alignment = 16 : i64} : (i32) -> !llvm.ptr<5>
  "ptxcc.copy_param"(%p, %copy) {size = 80 : i64, alignment = 16 : i64} : (!llvm.ptr<101>, !llvm.ptr<5>) -> ()
  %one = llvm.mlir.constant(1 : i32) : i32
  %slot = llvm.alloca %one x !llvm.ptr {alignment = 8 : i64} : (i32) -> !llvm.ptr
  %m = llvm.add %n, %one : i32
  %dynamic = llvm.alloca %m x i8 : (i32) -> !llvm.ptr
  %g = llvm.addrspacecast %copy : !llvm.ptr<5> to !llvm.ptr
  llvm.store %g, %slot : !llvm.ptr, !llvm.ptr
  llvm.call @consume2(%slot, %dynamic) : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.return
}
llvm.func @consume2(!llvm.ptr, !llvm.ptr)
