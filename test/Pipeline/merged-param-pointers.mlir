// Pointers a kernel reads out of its byval parameters through a merge
// (NVIDIA Warp's backward kernels read `array_t::data` from `adj ? adj :
// self`, and keep `nullptr` where there is no adjoint): every way back
// from the load ends at a parameter, in place or in its copy where
// nothing else wrote those bytes, so the pointer is global as one read
// from a single parameter is; a null pointer merged with global ones
// leaves them global. Each with its counter-case. (Warp's
// sample_furthest_points backward: generic atomics and 34 registers where
// llc alone, which marks these, has 32; now 32. llc does not follow this
// test's first merge: its first atomic stays generic.)
// RUN: %ptxcc-opt %s --ptxcc-pipeline --emit=ptx | FileCheck %s
// RUN: mlir-translate --mlir-to-llvmir %s | %llc-sm90 | FileCheck %s --check-prefix=LLC

// The written array is copied; the read-only one is read in place; the
// phi merges the two.
// CHECK-LABEL: .entry picked(
// CHECK: atom.global.add.f32
// CHECK: atom.global.add.f32
// CHECK: }
llvm.func ptx_kernelcc @picked(%w: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<(ptr, ptr, array<4 x i32>)>}, %r: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<(ptr, ptr, array<4 x i32>)>, llvm.readonly}, %v: f32, %n: i32) {
  %f = llvm.getelementptr %w[16] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %n, %f : i32, !llvm.ptr
  %null = llvm.mlir.zero : !llvm.ptr
  %grad = llvm.load %w : !llvm.ptr -> !llvm.ptr
  %none = llvm.icmp "eq" %grad, %null : !llvm.ptr
  llvm.cond_br %none, ^self, ^pick(%w : !llvm.ptr)
^self:
  %g8 = llvm.getelementptr %r[8] : (!llvm.ptr) -> !llvm.ptr, i8
  %own = llvm.load %g8 : !llvm.ptr -> !llvm.ptr
  %none2 = llvm.icmp "eq" %own, %null : !llvm.ptr
  llvm.cond_br %none2, ^done(%null : !llvm.ptr), ^pick(%r : !llvm.ptr)
^pick(%p: !llvm.ptr):
  %data = llvm.load %p : !llvm.ptr -> !llvm.ptr
  %old = llvm.atomicrmw fadd %data, %v seq_cst : !llvm.ptr, f32
  %next = llvm.load %w : !llvm.ptr -> !llvm.ptr
  llvm.br ^done(%next : !llvm.ptr)
^done(%q: !llvm.ptr):
  %old2 = llvm.atomicrmw fadd %q, %v seq_cst : !llvm.ptr, f32
  llvm.return
}

// Counter-case: one side is a pointer the kernel loaded from global
// memory, which may point anywhere; neither ptxcc nor llc claims global.
// CHECK-LABEL: .entry picked_from_memory(
// CHECK-NOT: atom.global
// CHECK: atom.add.f32
// CHECK: }
// LLC-LABEL: .entry picked_from_memory(
// LLC-NOT: atom.global
// LLC: atom.add.f32
// LLC: }
llvm.func ptx_kernelcc @picked_from_memory(%w: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<(ptr, ptr, array<4 x i32>)>}, %table: !llvm.ptr, %v: f32, %n: i32) {
  %f = llvm.getelementptr %w[16] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %n, %f : i32, !llvm.ptr
  %null = llvm.mlir.zero : !llvm.ptr
  %grad = llvm.load %w : !llvm.ptr -> !llvm.ptr
  %none = llvm.icmp "eq" %grad, %null : !llvm.ptr
  %other = llvm.load %table : !llvm.ptr -> !llvm.ptr
  llvm.cond_br %none, ^pick(%other : !llvm.ptr), ^pick(%w : !llvm.ptr)
^pick(%p: !llvm.ptr):
  %data = llvm.load %p : !llvm.ptr -> !llvm.ptr
  %old = llvm.atomicrmw fadd %data, %v seq_cst : !llvm.ptr, f32
  llvm.return
}

// Counter-case: the kernel writes a shared pointer into the copy through
// the merge; what comes back out may be that one.
// CHECK-LABEL: .entry written_through_merge(
// CHECK-NOT: atom.global
// CHECK: }
llvm.func ptx_kernelcc @written_through_merge(%w: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<(ptr, ptr, array<4 x i32>)>}, %r: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<(ptr, ptr, array<4 x i32>)>, llvm.readonly}, %s: !llvm.ptr<3>, %v: f32, %c: i1) {
  llvm.cond_br %c, ^pick(%w : !llvm.ptr), ^other
^other:
  llvm.br ^pick(%r : !llvm.ptr)
^pick(%p: !llvm.ptr):
  %g = llvm.addrspacecast %s : !llvm.ptr<3> to !llvm.ptr
  llvm.cond_br %c, ^write, ^read
^write:
  llvm.store %g, %p : !llvm.ptr, !llvm.ptr
  llvm.br ^read
^read:
  %data = llvm.load %w : !llvm.ptr -> !llvm.ptr
  %old = llvm.atomicrmw fadd %data, %v seq_cst : !llvm.ptr, f32
  llvm.return
}

// Counter-case: null merged with a pointer of no known space leaves it
// generic.
// CHECK-LABEL: .entry null_or_anything(
// CHECK-NOT: atom.global
// CHECK: atom.add.f32
// CHECK: }
llvm.func ptx_kernelcc @null_or_anything(%table: !llvm.ptr, %v: f32, %c: i1) {
  %null = llvm.mlir.zero : !llvm.ptr
  %other = llvm.load %table : !llvm.ptr -> !llvm.ptr
  llvm.cond_br %c, ^go(%null : !llvm.ptr), ^go(%other : !llvm.ptr)
^go(%q: !llvm.ptr):
  %old = llvm.atomicrmw fadd %q, %v seq_cst : !llvm.ptr, f32
  llvm.return
}
