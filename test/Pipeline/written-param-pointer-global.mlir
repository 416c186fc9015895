// A kernel that writes its byval struct and then uses a pointer it holds:
// ptxcc copies the struct, and the pointer that comes out of the copy is
// still known to be global, as it is for llc alone (which marks every
// pointer it loads from a kernel byval parameter, with or without
// kernel-params-global): atom.global and st.global, not the generic forms
// that an i64 copy of the field gave (NVIDIA Warp's backward kernels that
// write their array_t: 38 registers where llc alone takes 32).
// RUN: %ptxcc-opt %s --ptxcc-pipeline --emit=ptx | FileCheck %s
// RUN: mlir-translate --mlir-to-llvmir %s | %llc-sm90 | FileCheck %s --check-prefix=LLC

// CHECK-LABEL: .entry k(
// CHECK: atom.global.add.f32
// CHECK: st.global.b32
// LLC-LABEL: .entry k(
// LLC: atom.global.add.f32
llvm.func ptx_kernelcc @k(%s: !llvm.ptr {llvm.byval = !llvm.struct<(ptr, i64)>, llvm.align = 8 : i64}, %v: f32) {
  %n = llvm.getelementptr %s[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, i64)>
  %z = llvm.mlir.constant(0 : i64) : i64
  llvm.store %z, %n : i64, !llvm.ptr
  %data = llvm.load %s : !llvm.ptr -> !llvm.ptr
  %old = llvm.atomicrmw fadd %data, %v seq_cst : !llvm.ptr, f32
  %i = llvm.load %n : !llvm.ptr -> i64
  %q = llvm.getelementptr %data[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  llvm.store %old, %q : f32, !llvm.ptr
  llvm.return
}

// The copy stays in local memory (a copy from another slot writes the
// array), and the pointer is loaded from it: memory-space-opt knows the
// bytes it reads are still the parameter's, since every other write into
// the slot is at a known place elsewhere, so the pointer is global as one
// read from the parameter (NVIDIA Warp's array_t whose shape a backward
// kernel writes: generic atomics before).
// CHECK-LABEL: .entry copied(
// CHECK: atom.global.add.f32
llvm.func ptx_kernelcc @copied(%s: !llvm.ptr {llvm.byval = !llvm.struct<(ptr, array<4 x i32>)>, llvm.align = 8 : i64}, %v: f32, %i: i32) {
  %one = llvm.mlir.constant(1 : i32) : i32
  %n16 = llvm.mlir.constant(16 : i64) : i64
  %tmp = llvm.alloca %one x !llvm.array<4 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %t = llvm.getelementptr %tmp[0, %i] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x i32>
  llvm.store %i, %t : i32, !llvm.ptr
  %f = llvm.getelementptr %s[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, array<4 x i32>)>
  "llvm.intr.memcpy"(%f, %tmp, %n16) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  %data = llvm.load %s : !llvm.ptr -> !llvm.ptr
  %old = llvm.atomicrmw fadd %data, %v seq_cst : !llvm.ptr, f32
  llvm.return
}

// The counter-case: the kernel stores a shared pointer over the field, so
// what it loads back is no parameter's pointer and nothing claims global
// (llc finds shared by itself).
// CHECK-LABEL: .entry overwritten(
// CHECK-NOT: atom.global
// CHECK: atom.shared.add.f32
llvm.func ptx_kernelcc @overwritten(%s: !llvm.ptr {llvm.byval = !llvm.struct<(ptr, array<4 x i32>)>, llvm.align = 8 : i64}, %p: !llvm.ptr<3>, %v: f32, %i: i32) {
  %one = llvm.mlir.constant(1 : i32) : i32
  %n16 = llvm.mlir.constant(16 : i64) : i64
  %tmp = llvm.alloca %one x !llvm.array<4 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %t = llvm.getelementptr %tmp[0, %i] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x i32>
  llvm.store %i, %t : i32, !llvm.ptr
  %f = llvm.getelementptr %s[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, array<4 x i32>)>
  "llvm.intr.memcpy"(%f, %tmp, %n16) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  %g = llvm.addrspacecast %p : !llvm.ptr<3> to !llvm.ptr
  llvm.store %g, %s : !llvm.ptr, !llvm.ptr
  %data = llvm.load %s : !llvm.ptr -> !llvm.ptr
  %old = llvm.atomicrmw fadd %data, %v seq_cst : !llvm.ptr, f32
  llvm.return
}
