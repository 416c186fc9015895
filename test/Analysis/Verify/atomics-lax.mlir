// strict-atomics=false accepts what llc 22 emulates with a compare-and-swap
// loop (the atomics atomics.mlir rejects by default), and llc compiles them;
// 128-bit atomics below sm_90 / PTX 8.3 are still rejected (llc fails).
// RUN: %ptxcc-opt %s --split-input-file --verify-diagnostics --ptxcc-verify=strict-atomics=false
// RUN: not %ptxcc-opt %s --split-input-file --ptxcc-verify=strict-atomics=false 2>&1 | FileCheck %s --check-prefix=LAX
// RUN: head -n 30 %s | %to-llvmir | llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_60 -o - | FileCheck %s --check-prefix=PTX
// LAX-COUNT-2: error:
// LAX-NOT: error:
// PTX-LABEL: .func vector_fadd(
// PTX: atom.sys.global.cas.b32
// PTX-LABEL: .func cas16(
// PTX: atom.sys.cas.b32
// PTX-LABEL: .func fadd_f64(
// PTX: atom.shared.add.f64

llvm.func @vector_fadd(%p: !llvm.ptr<1>, %v: vector<2xf16>) attributes {target_cpu = "sm_60"} {
  %0 = llvm.atomicrmw fadd %p, %v monotonic : !llvm.ptr<1>, vector<2xf16>
  llvm.return
}
llvm.func @cas16(%p: !llvm.ptr, %a: i16, %b: i16) attributes {target_cpu = "sm_60"} {
  %0 = llvm.cmpxchg %p, %a, %b acq_rel monotonic : !llvm.ptr, i16
  llvm.return
}
llvm.func @fadd_f64(%p: !llvm.ptr<3>, %d: f64) attributes {target_cpu = "sm_60"} {
  %0 = llvm.atomicrmw fadd %p, %d monotonic : !llvm.ptr<3>, f64
  llvm.return
}

// -----

llvm.func @wide(%p: !llvm.ptr<1>, %a: i128, %v: vector<4xf32>) attributes {target_cpu = "sm_90", target_features = #llvm.target_features<["+ptx80"]>} {
  // expected-error@+1 {{'llvm.cmpxchg' on i128 needs sm_90 and PTX 8.3 (atom.cas.b128); the target is sm_90, PTX 8.0 (llc cannot lower it)}}
  %0 = llvm.cmpxchg %p, %a, %a syncscope("device") monotonic monotonic : !llvm.ptr<1>, i128
  // expected-error@+1 {{vector atomics not supported on this architecture! 'llvm.atomicrmw fadd' on vector<4xf32> needs sm_90 and PTX 8.4 (atom.sys.cas.b128)}}
  %1 = llvm.atomicrmw fadd %p, %v monotonic : !llvm.ptr<1>, vector<4xf32>
  llvm.return
}
