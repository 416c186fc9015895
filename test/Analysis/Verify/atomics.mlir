// Atomics the target has no instruction for (seed 003). Each function names
// its target (target_cpu / target_features, as clang writes them).
// strict-atomics (the default) rejects what llc 22 would emulate with a
// compare-and-swap loop; 128-bit atomics below sm_90 / PTX 8.3 (8.4 at the
// system scope) are rejected either way (llc fails on them: "unsupported
// cmpxchg"; ptxas on the `.sys` ones).
// RUN: %ptxcc-opt %s --split-input-file --verify-diagnostics --ptxcc-verify
// Passing counterparts: atomics-supported.mlir (the same atomics on targets
// that have them) and atomics-lax.mlir (strict-atomics=false).

llvm.func @vector_fadd(%p: !llvm.ptr<1>, %v: vector<2xf16>) attributes {target_cpu = "sm_80"} {
  // expected-error@+1 {{vector atomics not supported on this architecture! 'llvm.atomicrmw fadd' on vector<2xf16> needs sm_90 and PTX 8.1 (atom with .v2/.v4/.v8 vectors); the target is sm_80, PTX 7.0}}
  %0 = llvm.atomicrmw fadd %p, %v monotonic : !llvm.ptr<1>, vector<2xf16>
  llvm.return
}

// -----

llvm.func @vector_old_ptx(%p: !llvm.ptr<1>, %v: vector<2xf32>) attributes {target_cpu = "sm_90", target_features = #llvm.target_features<["+ptx80"]>} {
  // expected-error@+1 {{vector atomics not supported on this architecture! 'llvm.atomicrmw fmax' on vector<2xf32> needs sm_90 and PTX 8.1 (atom with .v2/.v4/.v8 vectors); the target is sm_90, PTX 8.0}}
  %0 = llvm.atomicrmw fmax %p, %v monotonic : !llvm.ptr<1>, vector<2xf32>
  llvm.return
}

// -----

llvm.func @cas16(%p: !llvm.ptr, %a: i16, %b: i16) attributes {target_cpu = "sm_60"} {
  // expected-error@+1 {{'llvm.cmpxchg' on i16 needs sm_70 and PTX 6.3 (atom.cas.b16); the target is sm_60, PTX 5.0 (strict-atomics=false lets llc emulate it with a compare-and-swap loop)}}
  %0 = llvm.cmpxchg %p, %a, %b acq_rel monotonic : !llvm.ptr, i16
  llvm.return
}

// -----

llvm.func @fadd_kinds(%p: !llvm.ptr<3>, %d: f64, %h: f16, %b: bf16) attributes {target_cpu = "sm_52"} {
  // expected-error@+1 {{'llvm.atomicrmw fadd' on f64 needs sm_60 and PTX 5.0 (atom.add.f64); the target is sm_52}}
  %0 = llvm.atomicrmw fadd %p, %d monotonic : !llvm.ptr<3>, f64
  // expected-error@+1 {{'llvm.atomicrmw fadd' on f16 needs sm_70 and PTX 6.3 (atom.add.noftz.f16)}}
  %1 = llvm.atomicrmw fadd %p, %h monotonic : !llvm.ptr<3>, f16
  // expected-error@+1 {{'llvm.atomicrmw fadd' on bf16 needs sm_90 and PTX 7.8 (atom.add.noftz.bf16)}}
  %2 = llvm.atomicrmw fadd %p, %b monotonic : !llvm.ptr<3>, bf16
  llvm.return
}

// -----

// llc cannot lower these at all: rejected with strict-atomics=false too.
llvm.func @wide(%p: !llvm.ptr<1>, %a: i128, %v: vector<4xf32>) attributes {target_cpu = "sm_90", target_features = #llvm.target_features<["+ptx80"]>} {
  // expected-error@+1 {{'llvm.cmpxchg' on i128 needs sm_90 and PTX 8.3 (atom.cas.b128); the target is sm_90, PTX 8.0 (llc cannot lower it)}}
  %0 = llvm.cmpxchg %p, %a, %a syncscope("device") monotonic monotonic : !llvm.ptr<1>, i128
  // expected-error@+1 {{vector atomics not supported on this architecture! 'llvm.atomicrmw fadd' on vector<4xf32> needs sm_90 and PTX 8.4 (atom.sys.cas.b128)}}
  %1 = llvm.atomicrmw fadd %p, %v monotonic : !llvm.ptr<1>, vector<4xf32>
  llvm.return
}

// -----

// At the system scope (LLVM's default: no syncscope) a 128-bit atomic is
// `atom.sys.*.b128`, which ptxas accepts from PTX 8.4 only; llc 22 emits it
// for PTX 8.3 all the same (atomics-supported.mlir assembles both scopes).
llvm.func @wide_system(%p: !llvm.ptr<1>, %a: i128) attributes {target_cpu = "sm_90", target_features = #llvm.target_features<["+ptx83"]>} {
  // expected-error@+1 {{'llvm.cmpxchg' on i128 needs sm_90 and PTX 8.4 (atom.sys.cas.b128); the target is sm_90, PTX 8.3 (llc cannot lower it)}}
  %0 = llvm.cmpxchg %p, %a, %a monotonic monotonic : !llvm.ptr<1>, i128
  // expected-error@+1 {{'llvm.atomicrmw xchg' on i128 needs sm_90 and PTX 8.4 (atom.sys.exch.b128)}}
  %1 = llvm.atomicrmw xchg %p, %a monotonic : !llvm.ptr<1>, i128
  %2 = llvm.atomicrmw xchg %p, %a syncscope("block") monotonic : !llvm.ptr<1>, i128
  llvm.return
}
