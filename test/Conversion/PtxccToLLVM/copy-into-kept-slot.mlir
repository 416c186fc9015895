// A kernel's written byval parameter is copied into a slot. Where llc's
// SROA will break the slot up, the copy is one integer per field, which it
// splits along the fields the code uses; where the slot stays whole in
// local memory, the copy is the fewest 8-byte pieces, as llc's own memcpy
// is (a copy in 2 x i32 vectors, or field by field, held registers for
// nothing). SROA keeps the slot when the code reads it through a phi it
// cannot speculate (measured with opt -passes=sroa, LLVM 22): a GEP of a
// phi whose other incoming value is an instruction (here the parameter
// cast to generic) is not unfolded, and a load after a write in the phi's
// block, or over a critical edge, is not moved. NVIDIA Warp's backward
// kernels read `adj ? adj : self` this way: scale_outer_2d backward 28
// registers where llc alone takes 26; now 26. ptxas figures (ptxas 13.5,
// sm_90, -c): ptxcc against llc alone.
// RUN: %ptxcc-opt %s --split-input-file --ptxcc-pipeline | FileCheck %s
// RUN: %ptxcc-opt %s --ptxcc-pipeline | %to-llvmir | %llc-sm90 -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -c -v %t.ptx -o %t.o 2>&1 | FileCheck %s --check-prefix=SASS %}
// RUN: %to-llvmir %s | %llc-sm90 -o %t.llc.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -c -v %t.llc.ptx -o %t.llc.o 2>&1 | FileCheck %s --check-prefix=SASS-LLC %}

// (In the order ptxas lists the functions.) The previous binary, which
// copied field by field into every slot read through a phi that only
// loads: 25, 25, 23 registers for the first three.
// SASS-LABEL: Function properties for picked_from_slots
// SASS-NEXT: 0 bytes stack frame
// SASS-NEXT: Used 8 registers
// SASS-LABEL: Function properties for picked_after_a_write
// SASS-NEXT: 56 bytes stack frame
// SASS-NEXT: Used 20 registers
// SASS-LABEL: Function properties for picked_over_plain_edges
// SASS-NEXT: 56 bytes stack frame
// SASS-NEXT: Used 20 registers
// SASS-LABEL: Function properties for picked_over_critical_edges
// SASS-NEXT: 56 bytes stack frame
// SASS-NEXT: Used 20 registers
// SASS-LLC-LABEL: Function properties for picked_from_slots
// SASS-LLC-NEXT: 40 bytes stack frame
// SASS-LLC-NEXT: Used 20 registers
// SASS-LLC-LABEL: Function properties for picked_after_a_write
// SASS-LLC-NEXT: 56 bytes stack frame
// SASS-LLC-NEXT: Used 20 registers
// SASS-LLC-LABEL: Function properties for picked_over_plain_edges
// SASS-LLC-NEXT: 56 bytes stack frame
// SASS-LLC-NEXT: Used 20 registers
// SASS-LLC-LABEL: Function properties for picked_over_critical_edges
// SASS-LLC-NEXT: 56 bytes stack frame
// SASS-LLC-NEXT: Used 20 registers

// Both edges into the phi are critical: the slot stays, copied in 8-byte
// pieces.
// CHECK-LABEL: llvm.func ptx_kernelcc @picked_over_critical_edges(
// CHECK-SAME: %[[W:[^:]*]]: !llvm.ptr {llvm.align = 8 : i64, llvm.byval
// CHECK: %[[P:.*]] = llvm.addrspacecast %[[W]] : !llvm.ptr to !llvm.ptr<101>
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK: %[[A:.*]] = llvm.load %[[P]] {alignment = 8 : i64} : !llvm.ptr<101> -> i64
// CHECK-COUNT-6: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<101> -> i64
// CHECK-NEXT: llvm.store %[[A]], %[[SLOT]] {alignment = 8 : i64} : i64, !llvm.ptr
// CHECK-COUNT-6: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : i64, !llvm.ptr
// CHECK-NOT: -> i8
// CHECK: llvm.return
llvm.func ptx_kernelcc @picked_over_critical_edges(%w: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<packed (ptr, ptr, array<4 x i32>, array<4 x i32>, i16, i16, array<4 x i8>)>}, %r: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<packed (ptr, ptr, array<4 x i32>, array<4 x i32>, i16, i16, array<4 x i8>)>, llvm.readonly}, %v: i32, %out: !llvm.ptr<1>) {
  %f = llvm.getelementptr %w[16] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %v, %f : i32, !llvm.ptr
  %base = llvm.load %w : !llvm.ptr -> !llvm.ptr
  %null = llvm.mlir.zero : !llvm.ptr
  %isnull = llvm.icmp "eq" %base, %null : !llvm.ptr
  llvm.cond_br %isnull, ^other, ^pick(%w : !llvm.ptr)
^other:
  %g8 = llvm.getelementptr %r[8] : (!llvm.ptr) -> !llvm.ptr, i8
  %b2 = llvm.load %g8 : !llvm.ptr -> !llvm.ptr
  %isnull2 = llvm.icmp "eq" %b2, %null : !llvm.ptr
  llvm.cond_br %isnull2, ^done, ^pick(%r : !llvm.ptr)
^pick(%p: !llvm.ptr):
  %g20 = llvm.getelementptr %p[20] : (!llvm.ptr) -> !llvm.ptr, i8
  %x = llvm.load %g20 : !llvm.ptr -> i32
  %g24 = llvm.getelementptr %p[24] : (!llvm.ptr) -> !llvm.ptr, i8
  %y = llvm.load %g24 : !llvm.ptr -> i32
  %g50 = llvm.getelementptr %p[50] : (!llvm.ptr) -> !llvm.ptr, i8
  %z = llvm.load %g50 : !llvm.ptr -> i16
  %zz = llvm.sext %z : i16 to i32
  %s = llvm.add %x, %y : i32
  %s2 = llvm.add %s, %zz : i32
  %o4 = llvm.getelementptr %out[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
  llvm.store %s2, %o4 : i32, !llvm.ptr<1>
  llvm.br ^done
^done:
  llvm.return
}

// -----

// Plain edges, but the phi has GEP users and the other incoming value is
// an instruction (the read-only parameter cast to generic): SROA does not
// unfold the GEPs, and the slot stays.
// CHECK-LABEL: llvm.func ptx_kernelcc @picked_over_plain_edges(
// CHECK-SAME: %[[W:[^:]*]]: !llvm.ptr {llvm.align = 8 : i64, llvm.byval
// CHECK: %[[P:.*]] = llvm.addrspacecast %[[W]] : !llvm.ptr to !llvm.ptr<101>
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK: %[[A:.*]] = llvm.load %[[P]] {alignment = 8 : i64} : !llvm.ptr<101> -> i64
// CHECK-COUNT-6: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<101> -> i64
// CHECK-NEXT: llvm.store %[[A]], %[[SLOT]] {alignment = 8 : i64} : i64, !llvm.ptr
// CHECK-COUNT-6: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : i64, !llvm.ptr
// CHECK-NOT: -> i8
// CHECK: llvm.return
llvm.func ptx_kernelcc @picked_over_plain_edges(%w: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<packed (ptr, ptr, array<4 x i32>, array<4 x i32>, i16, i16, array<4 x i8>)>}, %r: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<packed (ptr, ptr, array<4 x i32>, array<4 x i32>, i16, i16, array<4 x i8>)>, llvm.readonly}, %v: i32, %out: !llvm.ptr<1>) {
  %f = llvm.getelementptr %w[16] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %v, %f : i32, !llvm.ptr
  %base = llvm.load %w : !llvm.ptr -> !llvm.ptr
  %null = llvm.mlir.zero : !llvm.ptr
  %isnull = llvm.icmp "eq" %base, %null : !llvm.ptr
  llvm.cond_br %isnull, ^other, ^own
^own:
  llvm.br ^pick(%w : !llvm.ptr)
^other:
  %g8 = llvm.getelementptr %r[8] : (!llvm.ptr) -> !llvm.ptr, i8
  %b2 = llvm.load %g8 : !llvm.ptr -> !llvm.ptr
  %isnull2 = llvm.icmp "eq" %b2, %null : !llvm.ptr
  llvm.cond_br %isnull2, ^done, ^adjoint
^adjoint:
  llvm.br ^pick(%r : !llvm.ptr)
^pick(%p: !llvm.ptr):
  %g20 = llvm.getelementptr %p[20] : (!llvm.ptr) -> !llvm.ptr, i8
  %x = llvm.load %g20 : !llvm.ptr -> i32
  %g24 = llvm.getelementptr %p[24] : (!llvm.ptr) -> !llvm.ptr, i8
  %y = llvm.load %g24 : !llvm.ptr -> i32
  %g50 = llvm.getelementptr %p[50] : (!llvm.ptr) -> !llvm.ptr, i8
  %z = llvm.load %g50 : !llvm.ptr -> i16
  %zz = llvm.sext %z : i16 to i32
  %s = llvm.add %x, %y : i32
  %s2 = llvm.add %s, %zz : i32
  %o4 = llvm.getelementptr %out[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
  llvm.store %s2, %o4 : i32, !llvm.ptr<1>
  llvm.br ^done
^done:
  llvm.return
}

// -----

// A store before the loads in the phi's block: SROA does not move them.
// CHECK-LABEL: llvm.func ptx_kernelcc @picked_after_a_write(
// CHECK-SAME: %[[W:[^:]*]]: !llvm.ptr {llvm.align = 8 : i64, llvm.byval
// CHECK: %[[P:.*]] = llvm.addrspacecast %[[W]] : !llvm.ptr to !llvm.ptr<101>
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK: %[[A:.*]] = llvm.load %[[P]] {alignment = 8 : i64} : !llvm.ptr<101> -> i64
// CHECK-COUNT-6: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<101> -> i64
// CHECK-NEXT: llvm.store %[[A]], %[[SLOT]] {alignment = 8 : i64} : i64, !llvm.ptr
// CHECK-COUNT-6: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : i64, !llvm.ptr
// CHECK-NOT: -> i8
// CHECK: llvm.return
llvm.func ptx_kernelcc @picked_after_a_write(%w: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<packed (ptr, ptr, array<4 x i32>, array<4 x i32>, i16, i16, array<4 x i8>)>}, %r: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<packed (ptr, ptr, array<4 x i32>, array<4 x i32>, i16, i16, array<4 x i8>)>, llvm.readonly}, %v: i32, %out: !llvm.ptr<1>) {
  %f = llvm.getelementptr %w[16] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %v, %f : i32, !llvm.ptr
  %base = llvm.load %w : !llvm.ptr -> !llvm.ptr
  %null = llvm.mlir.zero : !llvm.ptr
  %isnull = llvm.icmp "eq" %base, %null : !llvm.ptr
  llvm.cond_br %isnull, ^other, ^own
^own:
  llvm.br ^pick(%w : !llvm.ptr)
^other:
  %g8 = llvm.getelementptr %r[8] : (!llvm.ptr) -> !llvm.ptr, i8
  %b2 = llvm.load %g8 : !llvm.ptr -> !llvm.ptr
  %isnull2 = llvm.icmp "eq" %b2, %null : !llvm.ptr
  llvm.cond_br %isnull2, ^done, ^adjoint
^adjoint:
  llvm.br ^pick(%r : !llvm.ptr)
^pick(%p: !llvm.ptr):
  llvm.store %v, %out : i32, !llvm.ptr<1>
  %g20 = llvm.getelementptr %p[20] : (!llvm.ptr) -> !llvm.ptr, i8
  %x = llvm.load %g20 : !llvm.ptr -> i32
  %g24 = llvm.getelementptr %p[24] : (!llvm.ptr) -> !llvm.ptr, i8
  %y = llvm.load %g24 : !llvm.ptr -> i32
  %g50 = llvm.getelementptr %p[50] : (!llvm.ptr) -> !llvm.ptr, i8
  %z = llvm.load %g50 : !llvm.ptr -> i16
  %zz = llvm.sext %z : i16 to i32
  %s = llvm.add %x, %y : i32
  %s2 = llvm.add %s, %zz : i32
  %o4 = llvm.getelementptr %out[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
  llvm.store %s2, %o4 : i32, !llvm.ptr<1>
  llvm.br ^done
^done:
  llvm.return
}

// -----

// The counter-case: the phi merges the copy with another stack slot over
// plain edges; SROA unfolds the GEPs, speculates the loads and deletes
// both slots, so the copy is one integer per field (the padding bytes as
// bytes) and the frame is empty (llc alone: 40 bytes).
// CHECK-LABEL: llvm.func ptx_kernelcc @picked_from_slots(
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<101> -> i16
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<101> -> i16
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr<101> -> i8
// CHECK: llvm.return
llvm.func ptx_kernelcc @picked_from_slots(%w: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<packed (ptr, ptr, array<4 x i32>, array<4 x i32>, i16, i16, array<4 x i8>)>}, %v: i32, %c: i1, %out: !llvm.ptr<1>) {
  %one = llvm.mlir.constant(1 : i32) : i32
  %zero = llvm.mlir.constant(0 : i32) : i32
  %z16 = llvm.mlir.constant(0 : i16) : i16
  %d = llvm.alloca %one x !llvm.struct<packed (ptr, ptr, array<4 x i32>, array<4 x i32>, i16, i16, array<4 x i8>)> {alignment = 8 : i64} : (i32) -> !llvm.ptr
  %d20 = llvm.getelementptr %d[20] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %v, %d20 : i32, !llvm.ptr
  %d24 = llvm.getelementptr %d[24] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %zero, %d24 : i32, !llvm.ptr
  %d50 = llvm.getelementptr %d[50] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %z16, %d50 : i16, !llvm.ptr
  %f = llvm.getelementptr %w[16] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %v, %f : i32, !llvm.ptr
  llvm.cond_br %c, ^own, ^other
^own:
  llvm.br ^pick(%w : !llvm.ptr)
^other:
  llvm.br ^pick(%d : !llvm.ptr)
^pick(%p: !llvm.ptr):
  %g20 = llvm.getelementptr %p[20] : (!llvm.ptr) -> !llvm.ptr, i8
  %x = llvm.load %g20 : !llvm.ptr -> i32
  %g24 = llvm.getelementptr %p[24] : (!llvm.ptr) -> !llvm.ptr, i8
  %y = llvm.load %g24 : !llvm.ptr -> i32
  %g50 = llvm.getelementptr %p[50] : (!llvm.ptr) -> !llvm.ptr, i8
  %z = llvm.load %g50 : !llvm.ptr -> i16
  %zz = llvm.sext %z : i16 to i32
  %s = llvm.add %x, %y : i32
  %s2 = llvm.add %s, %zz : i32
  llvm.store %s2, %out : i32, !llvm.ptr<1>
  llvm.return
}
