// promote-local-arrays decides by the frame llc lays out: allocas whose
// lifetime markers never overlap share one place in it (llc's stack
// colouring), so an array whose place stays taken by an array kept in local
// memory frees no stack when promoted, and is kept (ptxas: registers for
// nothing; NVIDIA Warp's float16 spatial matrices, issue 41).
// RUN: %ptxcc-opt %s -split-input-file --pass-pipeline='builtin.module(llvm.func(promote-local-arrays{promote-remarks=true}))' --verify-diagnostics | FileCheck %s
// A budget of 64 bytes (16 registers): one array of 16 floats.
// RUN: %ptxcc-opt %s -split-input-file --pass-pipeline='builtin.module(llvm.func(promote-local-arrays{promote-remarks=true max-promoted-registers=16}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=BUDGET
// RUN: %ptxcc-opt %s --ptxcc-pipeline | %to-llvmir | %llc-sm90 -o /dev/null

// %a's lifetime ends before %b's (passed to a call: kept) begins, and both
// take 64 bytes: llc gives them one place, which %b keeps. %a stays as it
// came.
// CHECK-LABEL: llvm.func ptx_kernelcc @shared_frame(
// CHECK: %[[A:.*]] = llvm.alloca
// CHECK: llvm.getelementptr %[[A]][0, %{{.*}}] : (!llvm.ptr, i32)
// BUDGET: remark: kept in local memory: its stack is shared with arrays kept in local memory: promoting it frees none
llvm.func @sink(!llvm.ptr)
llvm.func ptx_kernelcc @shared_frame(%out: !llvm.ptr<1>, %n: i32) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c16 = llvm.mlir.constant(16 : i32) : i32
  // expected-remark @+1 {{kept in local memory: its stack is shared with arrays kept in local memory: promoting it frees none}}
  %a = llvm.alloca %c1 x !llvm.array<16 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %b = llvm.alloca %c1 x !llvm.array<16 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.intr.lifetime.start %a : !llvm.ptr
  llvm.br ^fill_a(%c0 : i32)
^fill_a(%i_a: i32):
  %p_a = llvm.getelementptr %a[0, %i_a] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<16 x f32>
  %m_a = llvm.mul %i_a, %n : i32
  %v_a = llvm.sitofp %m_a : i32 to f32
  llvm.store %v_a, %p_a {alignment = 4 : i64} : f32, !llvm.ptr
  %i1_a = llvm.add %i_a, %c1 : i32
  %d_a = llvm.icmp "eq" %i1_a, %c16 : i32
  llvm.cond_br %d_a, ^a_done, ^fill_a(%i1_a : i32)
^a_done:
  %e_a = llvm.getelementptr %a[0, 5] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<16 x f32>
  %x_a = llvm.load %e_a {alignment = 4 : i64} : !llvm.ptr -> f32
  llvm.store %x_a, %out {alignment = 4 : i64} : f32, !llvm.ptr<1>
  llvm.intr.lifetime.end %a : !llvm.ptr
  llvm.intr.lifetime.start %b : !llvm.ptr
  llvm.call @sink(%b) : (!llvm.ptr) -> ()
  llvm.intr.lifetime.end %b : !llvm.ptr
  llvm.return
}

// -----

// The counter-case: %a takes 128 bytes of the place it shares with %b's
// 64; promoting it leaves 64.
// CHECK-LABEL: llvm.func ptx_kernelcc @own_frame(
// CHECK-NOT: llvm.getelementptr %{{.*}}[0, %{{.*}}] : (!llvm.ptr, i32)
// CHECK: llvm.return
// BUDGET: remark: kept in local memory: its 128 bytes exceed the 64 bytes of registers left (max-promoted-registers)
llvm.func @sink_own(!llvm.ptr)
llvm.func ptx_kernelcc @own_frame(%out: !llvm.ptr<1>, %n: i32) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c32 = llvm.mlir.constant(32 : i32) : i32
  // expected-remark @+1 {{promoted to registers: 128 bytes; loops unrolled with 32 iterations}}
  %a = llvm.alloca %c1 x !llvm.array<32 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %b = llvm.alloca %c1 x !llvm.array<16 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.intr.lifetime.start %a : !llvm.ptr
  llvm.br ^fill_a(%c0 : i32)
^fill_a(%i_a: i32):
  %p_a = llvm.getelementptr %a[0, %i_a] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<32 x f32>
  %m_a = llvm.mul %i_a, %n : i32
  %v_a = llvm.sitofp %m_a : i32 to f32
  llvm.store %v_a, %p_a {alignment = 4 : i64} : f32, !llvm.ptr
  %i1_a = llvm.add %i_a, %c1 : i32
  %d_a = llvm.icmp "eq" %i1_a, %c32 : i32
  llvm.cond_br %d_a, ^a_done, ^fill_a(%i1_a : i32)
^a_done:
  %e_a = llvm.getelementptr %a[0, 5] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<32 x f32>
  %x_a = llvm.load %e_a {alignment = 4 : i64} : !llvm.ptr -> f32
  llvm.store %x_a, %out {alignment = 4 : i64} : f32, !llvm.ptr<1>
  llvm.intr.lifetime.end %a : !llvm.ptr
  llvm.intr.lifetime.start %b : !llvm.ptr
  llvm.call @sink_own(%b) : (!llvm.ptr) -> ()
  llvm.intr.lifetime.end %b : !llvm.ptr
  llvm.return
}

// -----

// The counter-case: without lifetime markers both are live throughout (to
// llc as well): %a is promoted.
// CHECK-LABEL: llvm.func ptx_kernelcc @no_markers(
// CHECK-NOT: llvm.getelementptr %{{.*}}[0, %{{.*}}] : (!llvm.ptr, i32)
// CHECK: llvm.return
// BUDGET: remark: promoted to registers: 64 bytes; loops unrolled with 16 iterations
llvm.func @sink_none(!llvm.ptr)
llvm.func ptx_kernelcc @no_markers(%out: !llvm.ptr<1>, %n: i32) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c16 = llvm.mlir.constant(16 : i32) : i32
  // expected-remark @+1 {{promoted to registers: 64 bytes; loops unrolled with 16 iterations}}
  %a = llvm.alloca %c1 x !llvm.array<16 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %b = llvm.alloca %c1 x !llvm.array<16 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.br ^fill_a(%c0 : i32)
^fill_a(%i_a: i32):
  %p_a = llvm.getelementptr %a[0, %i_a] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<16 x f32>
  %m_a = llvm.mul %i_a, %n : i32
  %v_a = llvm.sitofp %m_a : i32 to f32
  llvm.store %v_a, %p_a {alignment = 4 : i64} : f32, !llvm.ptr
  %i1_a = llvm.add %i_a, %c1 : i32
  %d_a = llvm.icmp "eq" %i1_a, %c16 : i32
  llvm.cond_br %d_a, ^a_done, ^fill_a(%i1_a : i32)
^a_done:
  %e_a = llvm.getelementptr %a[0, 5] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<16 x f32>
  %x_a = llvm.load %e_a {alignment = 4 : i64} : !llvm.ptr -> f32
  llvm.store %x_a, %out {alignment = 4 : i64} : f32, !llvm.ptr<1>
  llvm.call @sink_none(%b) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

// Two arrays one after the other, both promoted by default. Within 64
// bytes only the first fits, and its place stays the second's: neither is
// promoted.
// CHECK-LABEL: llvm.func ptx_kernelcc @one_after_the_other(
// CHECK-NOT: llvm.getelementptr %{{.*}}[0, %{{.*}}] : (!llvm.ptr, i32)
// CHECK: llvm.return
// BUDGET: remark: kept in local memory: its stack is shared with arrays kept in local memory: promoting it frees none
// BUDGET: remark: kept in local memory: its stack is shared with arrays kept in local memory: promoting it frees none
llvm.func ptx_kernelcc @one_after_the_other(%out: !llvm.ptr<1>, %n: i32) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c16 = llvm.mlir.constant(16 : i32) : i32
  // expected-remark @+1 {{promoted to registers: 64 bytes; loops unrolled with 16 iterations}}
  %a = llvm.alloca %c1 x !llvm.array<16 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  // expected-remark @+1 {{promoted to registers: 64 bytes; loops unrolled with 16 iterations}}
  %b = llvm.alloca %c1 x !llvm.array<16 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.intr.lifetime.start %a : !llvm.ptr
  llvm.br ^fill_a(%c0 : i32)
^fill_a(%i_a: i32):
  %p_a = llvm.getelementptr %a[0, %i_a] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<16 x f32>
  %m_a = llvm.mul %i_a, %n : i32
  %v_a = llvm.sitofp %m_a : i32 to f32
  llvm.store %v_a, %p_a {alignment = 4 : i64} : f32, !llvm.ptr
  %i1_a = llvm.add %i_a, %c1 : i32
  %d_a = llvm.icmp "eq" %i1_a, %c16 : i32
  llvm.cond_br %d_a, ^a_done, ^fill_a(%i1_a : i32)
^a_done:
  %e_a = llvm.getelementptr %a[0, 5] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<16 x f32>
  %x_a = llvm.load %e_a {alignment = 4 : i64} : !llvm.ptr -> f32
  llvm.store %x_a, %out {alignment = 4 : i64} : f32, !llvm.ptr<1>
  llvm.intr.lifetime.end %a : !llvm.ptr
  llvm.intr.lifetime.start %b : !llvm.ptr
  llvm.br ^fill_b(%c0 : i32)
^fill_b(%i_b: i32):
  %p_b = llvm.getelementptr %b[0, %i_b] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<16 x f32>
  %m_b = llvm.mul %i_b, %n : i32
  %v_b = llvm.sitofp %m_b : i32 to f32
  llvm.store %v_b, %p_b {alignment = 4 : i64} : f32, !llvm.ptr
  %i1_b = llvm.add %i_b, %c1 : i32
  %d_b = llvm.icmp "eq" %i1_b, %c16 : i32
  llvm.cond_br %d_b, ^b_done, ^fill_b(%i1_b : i32)
^b_done:
  %e_b = llvm.getelementptr %b[0, 5] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<16 x f32>
  %x_b = llvm.load %e_b {alignment = 4 : i64} : !llvm.ptr -> f32
  llvm.store %x_b, %out {alignment = 4 : i64} : f32, !llvm.ptr<1>
  llvm.intr.lifetime.end %b : !llvm.ptr
  llvm.return
}

// -----

// The counter-case: live at once, each has a place of its own; the first
// is promoted within 64 bytes, the second refused.
// CHECK-LABEL: llvm.func ptx_kernelcc @at_once(
// BUDGET: remark: promoted to registers: 64 bytes; loops unrolled with 16 iterations
// BUDGET: remark: kept in local memory: its 64 bytes exceed the 0 bytes of registers left (max-promoted-registers)
llvm.func ptx_kernelcc @at_once(%out: !llvm.ptr<1>, %n: i32) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c16 = llvm.mlir.constant(16 : i32) : i32
  // expected-remark @+1 {{promoted to registers: 64 bytes; loops unrolled with 16 iterations}}
  %a = llvm.alloca %c1 x !llvm.array<16 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  // expected-remark @+1 {{promoted to registers: 64 bytes; loops unrolled with 16 iterations}}
  %b = llvm.alloca %c1 x !llvm.array<16 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.intr.lifetime.start %a : !llvm.ptr
  llvm.intr.lifetime.start %b : !llvm.ptr
  llvm.br ^fill_a(%c0 : i32)
^fill_a(%i_a: i32):
  %p_a = llvm.getelementptr %a[0, %i_a] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<16 x f32>
  %m_a = llvm.mul %i_a, %n : i32
  %v_a = llvm.sitofp %m_a : i32 to f32
  llvm.store %v_a, %p_a {alignment = 4 : i64} : f32, !llvm.ptr
  %i1_a = llvm.add %i_a, %c1 : i32
  %d_a = llvm.icmp "eq" %i1_a, %c16 : i32
  llvm.cond_br %d_a, ^a_done, ^fill_a(%i1_a : i32)
^a_done:
  %e_a = llvm.getelementptr %a[0, 5] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<16 x f32>
  %x_a = llvm.load %e_a {alignment = 4 : i64} : !llvm.ptr -> f32
  llvm.store %x_a, %out {alignment = 4 : i64} : f32, !llvm.ptr<1>
  llvm.br ^fill_b(%c0 : i32)
^fill_b(%i_b: i32):
  %p_b = llvm.getelementptr %b[0, %i_b] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<16 x f32>
  %m_b = llvm.mul %i_b, %n : i32
  %v_b = llvm.sitofp %m_b : i32 to f32
  llvm.store %v_b, %p_b {alignment = 4 : i64} : f32, !llvm.ptr
  %i1_b = llvm.add %i_b, %c1 : i32
  %d_b = llvm.icmp "eq" %i1_b, %c16 : i32
  llvm.cond_br %d_b, ^b_done, ^fill_b(%i1_b : i32)
^b_done:
  %e_b = llvm.getelementptr %b[0, 5] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<16 x f32>
  %x_b = llvm.load %e_b {alignment = 4 : i64} : !llvm.ptr -> f32
  llvm.store %x_b, %out {alignment = 4 : i64} : f32, !llvm.ptr<1>
  llvm.intr.lifetime.end %a : !llvm.ptr
  llvm.intr.lifetime.end %b : !llvm.ptr
  llvm.return
}
