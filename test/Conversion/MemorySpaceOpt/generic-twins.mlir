// memory-space-opt moves an access to global space through a copy of its
// address (the "twin"); a generic use that cannot move (an inline-assembly
// operand: Warp's bf16 atomics) keeps the generic original. Where both
// would be live at once, that costs registers, and the use takes the twin
// cast back to generic instead, as llc does; where the twin is dead by the
// generic use, the original stays, and ptxas takes it for free from the
// generic base (llc's cast back costs 2 registers there). Issue 41:
// reduced from NVIDIA Warp's fa_generic_sums backward (30 registers where
// llc alone takes 27) and approx_div backward (29 registers, where casting
// the twin back always gave 32), with ptxas's figures (ptxas 13.5, sm_90)
// for ptxcc and for llc alone.
// RUN: %ptxcc-opt %s --split-input-file --memory-space-opt | FileCheck %s
// RUN: %ptxcc-opt %s --ptxcc-pipeline | %to-llvmir | %llc-sm90 -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -c -v %t.ptx -o %t.o 2>&1 | FileCheck %s --check-prefix=SASS %}
// RUN: %to-llvmir %s | %llc-sm90 -o %t.llc.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -c -v %t.llc.ptx -o %t.llc.o 2>&1 | FileCheck %s --check-prefix=SASS-LLC %}

// (In the order ptxas lists the functions; local_slot and live_twin take
// what llc alone takes.)
// SASS-LABEL: Function properties for local_slot
// SASS-NEXT: 16 bytes stack frame
// SASS-NEXT: Used 24 registers
// SASS-LABEL: Function properties for live_twin
// SASS-NEXT: 0 bytes stack frame
// SASS-NEXT: Used 24 registers
// SASS-LABEL: Function properties for dead_twin
// SASS-NEXT: 0 bytes stack frame
// SASS-NEXT: Used 18 registers
// SASS-LABEL: Function properties for hoisted_constant_in_loop
// SASS-NEXT: 0 bytes stack frame
// SASS-NEXT: Used 12 registers
// SASS-LABEL: Function properties for hoisted
// SASS-NEXT: 0 bytes stack frame
// SASS-NEXT: Used 12 registers
// SASS-LLC-LABEL: Function properties for local_slot
// SASS-LLC-NEXT: 16 bytes stack frame
// SASS-LLC-NEXT: Used 24 registers
// SASS-LLC-LABEL: Function properties for live_twin
// SASS-LLC-NEXT: 0 bytes stack frame
// SASS-LLC-NEXT: Used 24 registers
// SASS-LLC-LABEL: Function properties for dead_twin
// SASS-LLC-NEXT: 0 bytes stack frame
// SASS-LLC-NEXT: Used 20 registers
// SASS-LLC-LABEL: Function properties for hoisted_constant_in_loop
// SASS-LLC-NEXT: 0 bytes stack frame
// SASS-LLC-NEXT: Used 12 registers
// SASS-LLC-LABEL: Function properties for hoisted
// SASS-LLC-NEXT: 0 bytes stack frame
// SASS-LLC-NEXT: Used 12 registers

// The address does not change in the loop, which uses both the load's
// global twin and the generic operand: llc hoists both, and both stay live
// across the loop (16 registers before). The operand is the twin cast back.
// CHECK-LABEL: llvm.func ptx_kernelcc @hoisted(
// CHECK-SAME: %[[A:[^:]*]]: !llvm.ptr, %[[B:[^:]*]]: !llvm.ptr,
// CHECK: %[[G:.*]] = llvm.addrspacecast %[[B]] : !llvm.ptr to !llvm.ptr<1>
// CHECK: ^bb1:
// CHECK-NEXT: %[[T:.*]] = llvm.getelementptr %[[G]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NOT: llvm.getelementptr
// CHECK: ^bb2:
// CHECK-NEXT: %[[V:.*]] = llvm.load %[[T]]
// CHECK-NEXT: %[[BACK:.*]] = llvm.addrspacecast %[[T]] : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT: llvm.inline_asm {{.*}} %[[BACK]], %[[V]]
llvm.func ptx_kernelcc @hoisted(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i1) {
  %0 = llvm.mlir.constant(1 : i64) : i64
  %1 = llvm.mlir.constant(0 : i16) : i16
  llvm.br ^bb1
^bb1:
  %2 = llvm.getelementptr %arg1[%0] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  llvm.cond_br %arg2, ^bb3, ^bb2
^bb2:
  %3 = llvm.load %2 {alignment = 2 : i64} : !llvm.ptr -> i16
  %4 = llvm.inline_asm has_side_effects "atom.add.noftz.bf16 $0, [$1], $2;", "=h,l,h,~{memory}" %2, %3 : (!llvm.ptr, i16) -> i16
  llvm.br ^bb1
^bb3:
  %5 = llvm.inline_asm has_side_effects "atom.add.noftz.bf16 $0, [$1], $2;", "=h,l,h,~{memory}" %arg0, %1 : (!llvm.ptr, i16) -> i16
  llvm.br ^bb1
}

// -----

// The same with the index a constant made in the loop, as MLIR front ends
// place them: still the same address each time round.
// CHECK-LABEL: llvm.func ptx_kernelcc @hoisted_constant_in_loop(
// CHECK: ^bb1:
// CHECK: %[[T:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NOT: llvm.getelementptr
// CHECK: %[[V:.*]] = llvm.load %[[T]]
// CHECK-NEXT: %[[BACK:.*]] = llvm.addrspacecast %[[T]] : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT: llvm.inline_asm {{.*}} %[[BACK]], %[[V]]
llvm.func ptx_kernelcc @hoisted_constant_in_loop(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i1) {
  llvm.br ^bb1
^bb1:
  %0 = llvm.mlir.constant(1 : i64) : i64
  %2 = llvm.getelementptr %arg1[%0] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  llvm.cond_br %arg2, ^bb3, ^bb2
^bb2:
  %3 = llvm.load %2 {alignment = 2 : i64} : !llvm.ptr -> i16
  %4 = llvm.inline_asm has_side_effects "atom.add.noftz.bf16 $0, [$1], $2;", "=h,l,h,~{memory}" %2, %3 : (!llvm.ptr, i16) -> i16
  llvm.br ^bb1
^bb3:
  %1 = llvm.mlir.constant(0 : i16) : i16
  %5 = llvm.inline_asm has_side_effects "atom.add.noftz.bf16 $0, [$1], $2;", "=h,l,h,~{memory}" %arg0, %1 : (!llvm.ptr, i16) -> i16
  llvm.br ^bb1
}

// -----

// The twin's one use, the load, comes before the loop that uses the
// generic address: the original stays (18 registers; llc's cast back, 20).
// CHECK-LABEL: llvm.func ptx_kernelcc @dead_twin(
// CHECK-SAME: %{{[^:]*}}: i64, %[[P:[^:]*]]: !llvm.ptr)
// CHECK: %[[GEN:.*]] = llvm.getelementptr %[[P]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: %[[TWIN:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK: llvm.load %[[TWIN]]
// CHECK-NOT: llvm.addrspacecast
// CHECK: llvm.inline_asm {{.*}} %[[GEN]],
llvm.func ptx_kernelcc @dead_twin(%arg0: i64, %arg1: !llvm.ptr) {
  %0 = llvm.mlir.constant(1 : i64) : i64
  %1 = llvm.mlir.constant(0 : i16) : i16
  %2 = llvm.udiv %0, %arg0 : i64
  %3 = llvm.mul %2, %arg0 : i64
  %4 = llvm.getelementptr %arg1[%3] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  %5 = llvm.load %4 {alignment = 2 : i64} : !llvm.ptr -> i16
  llvm.br ^bb1
^bb1:
  %6 = llvm.inline_asm has_side_effects "{atom.global.cas.b16 $0,[$1],$2,$3; }", "=h,l,h,h,~{memory}" %4, %5, %1 : (!llvm.ptr, i16, i16) -> i16
  llvm.br ^bb1
}

// -----

// No loop: the twin is read after the generic use, so the two would be
// live together between them; the call takes the twin cast back.
// CHECK-LABEL: llvm.func ptx_kernelcc @live_twin(
// CHECK: %[[TWIN:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NOT: llvm.getelementptr
// CHECK: %[[BACK:.*]] = llvm.addrspacecast %[[TWIN]] : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT: llvm.call @use(%[[BACK]])
// CHECK-NEXT: llvm.load %[[TWIN]]
llvm.func @use(!llvm.ptr)
llvm.func ptx_kernelcc @live_twin(%p: !llvm.ptr, %i: i64, %out: !llvm.ptr) {
  %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %q : !llvm.ptr -> f32
  llvm.call @use(%q) : (!llvm.ptr) -> ()
  %w = llvm.load %q : !llvm.ptr -> f32
  %s = llvm.fadd %v, %w : f32
  llvm.store %s, %out : f32, !llvm.ptr
  llvm.return
}

// -----

// A stack slot's generic address stays whatever its local twin does: it
// is the frame pointer plus a constant, which ptxas rematerializes.
// CHECK-LABEL: llvm.func ptx_kernelcc @local_slot(
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK: %[[GEN:.*]] = llvm.getelementptr %[[SLOT]][1] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK: llvm.call @use_local(%[[GEN]])
llvm.func @use_local(!llvm.ptr)
llvm.func ptx_kernelcc @local_slot(%i: f32, %out: !llvm.ptr) {
  %one = llvm.mlir.constant(1 : i32) : i32
  %slot = llvm.alloca %one x !llvm.array<4 x f32> : (i32) -> !llvm.ptr
  %q = llvm.getelementptr %slot[1] : (!llvm.ptr) -> !llvm.ptr, f32
  llvm.store %i, %q : f32, !llvm.ptr
  llvm.call @use_local(%q) : (!llvm.ptr) -> ()
  %w = llvm.load %q : !llvm.ptr -> f32
  llvm.store %w, %out : f32, !llvm.ptr
  llvm.return
}
