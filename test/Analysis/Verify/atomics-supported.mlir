// The atomics atomics.mlir rejects, on targets that have them: ptxcc-verify
// accepts them and llc compiles them. The f64/f16/bf16 fadds become the
// instructions the rules name; llc 22 uses neither atom.cas.b16 nor vector
// atom on any target (a 32-bit cas loop; a 128-bit cas loop for the
// vectors), so for those the rule follows the PTX ISA, not llc.
// RUN: %ptxcc-opt %s --ptxcc-verify 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %ptxcc-opt %s | %to-llvmir | llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx84 -o - | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: llvm.func @cas16(
// PTX-LABEL: .func cas16(
// PTX: atom.relaxed.sys.cas.b32
llvm.func @cas16(%p: !llvm.ptr, %a: i16, %b: i16) attributes {target_cpu = "sm_70", target_features = #llvm.target_features<["+ptx63"]>} {
  %0 = llvm.cmpxchg %p, %a, %b monotonic monotonic : !llvm.ptr, i16
  llvm.return
}

// CHECK-LABEL: llvm.func @fadd_kinds(
// PTX-LABEL: .func fadd_kinds(
// PTX-DAG: atom.shared.add.f64
// PTX-DAG: atom.shared.add.noftz.f16
// PTX-DAG: atom.shared.add.noftz.bf16
llvm.func @fadd_kinds(%p: !llvm.ptr<3>, %d: f64, %h: f16, %b: bf16) attributes {target_cpu = "sm_90"} {
  %0 = llvm.atomicrmw fadd %p, %d monotonic : !llvm.ptr<3>, f64
  %1 = llvm.atomicrmw fadd %p, %h monotonic : !llvm.ptr<3>, f16
  %2 = llvm.atomicrmw fadd %p, %b monotonic : !llvm.ptr<3>, bf16
  llvm.return
}

// CHECK-LABEL: llvm.func @vector_and_wide(
// PTX-LABEL: .func vector_and_wide(
// PTX: atom.relaxed.sys.global.cas.b32
// PTX-COUNT-2: atom.relaxed.sys.global.cas.b128
llvm.func @vector_and_wide(%p: !llvm.ptr<1>, %v: vector<2xf16>, %a: i128, %w: vector<4xf32>) attributes {target_cpu = "sm_90", target_features = #llvm.target_features<["+ptx84"]>} {
  %0 = llvm.atomicrmw fadd %p, %v monotonic : !llvm.ptr<1>, vector<2xf16>
  %1 = llvm.cmpxchg %p, %a, %a monotonic monotonic : !llvm.ptr<1>, i128
  %2 = llvm.atomicrmw fadd %p, %w monotonic : !llvm.ptr<1>, vector<4xf32>
  llvm.return
}

// Below the system scope PTX 8.3 is enough for 128-bit atomics (ptxas
// wants 8.4 for `.sys` only).
// CHECK-LABEL: llvm.func @wide_scoped(
// PTX-LABEL: .func wide_scoped(
// PTX: atom.relaxed.gpu.global.cas.b128
// PTX: atom.relaxed.cta.global.exch.b128
llvm.func @wide_scoped(%p: !llvm.ptr<1>, %a: i128) attributes {target_cpu = "sm_90", target_features = #llvm.target_features<["+ptx83"]>} {
  %0 = llvm.cmpxchg %p, %a, %a syncscope("device") monotonic monotonic : !llvm.ptr<1>, i128
  %1 = llvm.atomicrmw xchg %p, %a syncscope("block") monotonic : !llvm.ptr<1>, i128
  llvm.return
}
