// memory-space-opt: each rule of the address-space lattice, one function
// per rule.
// RUN: %ptxcc-opt %s --split-input-file --memory-space-opt | FileCheck %s
// RUN: %ptxcc-opt %s --split-input-file --memory-space-opt=kernel-params-global=false | FileCheck %s --check-prefix=NOGLOBAL
// RUN: %ptxcc-opt %s --split-input-file --memory-space-opt | %to-llvmir --split-input-file | FileCheck %s --check-prefix=VALID

// Kernel pointer parameters point to global memory (CUDA): saxpy's loads
// and its store move to space 1 through a copy of each GEP.
// CHECK-LABEL: llvm.func ptx_kernelcc @saxpy(
// CHECK-SAME: %[[A:.*]]: f32, %[[X:[^:]*]]: !llvm.ptr, %[[Y:[^:]*]]: !llvm.ptr, %[[I:[^:]*]]: i64)
// CHECK-DAG: %[[GX:.*]] = llvm.addrspacecast %[[X]] : !llvm.ptr to !llvm.ptr<1>
// CHECK-DAG: %[[GY:.*]] = llvm.addrspacecast %[[Y]] : !llvm.ptr to !llvm.ptr<1>
// CHECK: %[[PX:.*]] = llvm.getelementptr inbounds %[[GX]][%[[I]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: llvm.load %[[PX]] : !llvm.ptr<1> -> f32
// CHECK: %[[PY:.*]] = llvm.getelementptr inbounds %[[GY]][%[[I]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: llvm.load %[[PY]] : !llvm.ptr<1> -> f32
// CHECK: llvm.store %{{.*}}, %[[PY]] : f32, !llvm.ptr<1>
// The generic GEPs are gone: nothing uses them any more.
// CHECK-NOT: !llvm.ptr -> f32
// CHECK: llvm.return
// NOGLOBAL-LABEL: llvm.func ptx_kernelcc @saxpy(
// NOGLOBAL-NOT: !llvm.ptr<1>
// NOGLOBAL: llvm.return
llvm.func ptx_kernelcc @saxpy(%a: f32, %x: !llvm.ptr, %y: !llvm.ptr, %i: i64) {
  %px = llvm.getelementptr inbounds %x[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %vx = llvm.load %px : !llvm.ptr -> f32
  %py = llvm.getelementptr inbounds %y[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %vy = llvm.load %py : !llvm.ptr -> f32
  %m = llvm.fmul %a, %vx : f32
  %s = llvm.fadd %m, %vy : f32
  llvm.store %s, %py : f32, !llvm.ptr
  llvm.return
}

// -----

// Device-function parameters may point anywhere: nothing changes.
// CHECK-LABEL: llvm.func @device_param(
// CHECK-SAME: %[[P:[^:]*]]: !llvm.ptr)
// CHECK-NEXT: %[[V:.*]] = llvm.load %[[P]] : !llvm.ptr -> i32
// CHECK-NEXT: llvm.return %[[V]]
llvm.func @device_param(%p: !llvm.ptr) -> i32 {
  %v = llvm.load %p : !llvm.ptr -> i32
  llvm.return %v : i32
}

// -----

// An explicit cast from a specific space is a source; the access uses the
// original pointer and the cast goes away.
// CHECK-LABEL: llvm.func @from_shared(
// CHECK-SAME: %[[S:[^:]*]]: !llvm.ptr<3>, %[[V:[^:]*]]: i32)
// CHECK-NEXT: llvm.store %[[V]], %[[S]] : i32, !llvm.ptr<3>
// CHECK-NEXT: llvm.return
llvm.func @from_shared(%s: !llvm.ptr<3>, %v: i32) {
  %g = llvm.addrspacecast %s : !llvm.ptr<3> to !llvm.ptr
  llvm.store %v, %g : i32, !llvm.ptr
  llvm.return
}

// -----

// A loop whose pointer is a block argument (MLIR's phi), fed by a shared
// pointer on entry and by a GEP of itself on the back edge: the cycle stays
// shared, and the load moves to space 3.
// CHECK-LABEL: llvm.func @loop(
// CHECK: ^[[HEAD:.*]](%[[P:.*]]: !llvm.ptr, %{{.*}}: f32):
// CHECK-NEXT: %[[L:.*]] = llvm.addrspacecast %[[P]] : !llvm.ptr to !llvm.ptr<3>
// CHECK-NEXT: llvm.load %[[L]] : !llvm.ptr<3> -> f32
llvm.func @loop(%base: !llvm.ptr<3>, %n: i64) -> f32 {
  %g = llvm.addrspacecast %base : !llvm.ptr<3> to !llvm.ptr
  %end = llvm.getelementptr %g[%n] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  llvm.br ^head(%g, %zero : !llvm.ptr, f32)
^head(%p: !llvm.ptr, %acc: f32):
  %v = llvm.load %p : !llvm.ptr -> f32
  %sum = llvm.fadd %acc, %v : f32
  %next = llvm.getelementptr %p[1] : (!llvm.ptr) -> !llvm.ptr, f32
  %done = llvm.icmp "eq" %next, %end : !llvm.ptr
  llvm.cond_br %done, ^exit, ^head(%next, %sum : !llvm.ptr, f32)
^exit:
  llvm.return %sum : f32
}

// -----

// The same loop entered with a generic pointer: the join is generic and
// nothing changes.
// CHECK-LABEL: llvm.func @loop_generic(
// CHECK-NOT: addrspacecast
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> f32
llvm.func @loop_generic(%base: !llvm.ptr, %n: i64, %c: i1) -> f32 {
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  llvm.br ^head(%base, %zero : !llvm.ptr, f32)
^head(%p: !llvm.ptr, %acc: f32):
  %v = llvm.load %p : !llvm.ptr -> f32
  %sum = llvm.fadd %acc, %v : f32
  %next = llvm.getelementptr %p[1] : (!llvm.ptr) -> !llvm.ptr, f32
  llvm.cond_br %c, ^exit, ^head(%next, %sum : !llvm.ptr, f32)
^exit:
  llvm.return %sum : f32
}

// -----

// A select of two global pointers is global: the select is copied into
// space 1.
// CHECK-LABEL: llvm.func @select_same(
// CHECK-SAME: %[[A:[^:]*]]: !llvm.ptr<1>, %[[B:[^:]*]]: !llvm.ptr<1>, %[[C:[^:]*]]: i1)
// CHECK: %[[S:.*]] = llvm.select %[[C]], %[[A]], %[[B]] : i1, !llvm.ptr<1>
// CHECK-NEXT: llvm.load %[[S]] : !llvm.ptr<1> -> i32
llvm.func @select_same(%a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %c: i1) -> i32 {
  %ga = llvm.addrspacecast %a : !llvm.ptr<1> to !llvm.ptr
  %gb = llvm.addrspacecast %b : !llvm.ptr<1> to !llvm.ptr
  %s = llvm.select %c, %ga, %gb : i1, !llvm.ptr
  %v = llvm.load %s : !llvm.ptr -> i32
  llvm.return %v : i32
}

// -----

// A select of a global and a shared pointer is generic: the load stays.
// CHECK-LABEL: llvm.func @select_mixed(
// CHECK: %[[S:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, !llvm.ptr
// CHECK-NEXT: llvm.load %[[S]] : !llvm.ptr -> i32
llvm.func @select_mixed(%a: !llvm.ptr<1>, %b: !llvm.ptr<3>, %c: i1) -> i32 {
  %ga = llvm.addrspacecast %a : !llvm.ptr<1> to !llvm.ptr
  %gb = llvm.addrspacecast %b : !llvm.ptr<3> to !llvm.ptr
  %s = llvm.select %c, %ga, %gb : i1, !llvm.ptr
  %v = llvm.load %s : !llvm.ptr -> i32
  llvm.return %v : i32
}

// -----

// A null pointer is one in every space (upstream's InferAddressSpaces):
// selected against a global pointer it leaves the select global, and the
// copy of the select takes the global null.
// CHECK-LABEL: llvm.func @select_null(
// CHECK-SAME: %[[A:[^:]*]]: !llvm.ptr<1>, %[[C:[^:]*]]: i1)
// CHECK: %[[N:.*]] = llvm.mlir.zero : !llvm.ptr<1>
// CHECK: %[[S:.*]] = llvm.select %[[C]], %[[A]], %[[N]] : i1, !llvm.ptr<1>
// CHECK-NEXT: llvm.load %[[S]] : !llvm.ptr<1> -> i32
llvm.func @select_null(%a: !llvm.ptr<1>, %c: i1) -> i32 {
  %ga = llvm.addrspacecast %a : !llvm.ptr<1> to !llvm.ptr
  %null = llvm.mlir.zero : !llvm.ptr
  %s = llvm.select %c, %ga, %null : i1, !llvm.ptr
  %v = llvm.load %s : !llvm.ptr -> i32
  llvm.return %v : i32
}

// -----

// The counter-case: null against a pointer of no known space stays
// generic, and so does a null alone.
// CHECK-LABEL: llvm.func @select_null_generic(
// CHECK: %[[S:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, !llvm.ptr
// CHECK-NEXT: llvm.load %[[S]] : !llvm.ptr -> i32
// CHECK: %[[N:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: llvm.load %[[N]] : !llvm.ptr -> i32
llvm.func @select_null_generic(%a: !llvm.ptr, %c: i1) -> i32 {
  %null = llvm.mlir.zero : !llvm.ptr
  %s = llvm.select %c, %a, %null : i1, !llvm.ptr
  %v = llvm.load %s : !llvm.ptr -> i32
  %null2 = llvm.mlir.zero : !llvm.ptr
  %w = llvm.load %null2 : !llvm.ptr -> i32
  %r = llvm.add %v, %w : i32
  llvm.return %r : i32
}

// -----

// A pointer loaded from (generic) memory stays generic, even in a kernel:
// the load of the pointer itself moves to global, the load through it
// does not.
// CHECK-LABEL: llvm.func ptx_kernelcc @loaded_pointer(
// CHECK: %[[Q:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> !llvm.ptr
// CHECK-NEXT: llvm.load %[[Q]] : !llvm.ptr -> i32
llvm.func ptx_kernelcc @loaded_pointer(%pp: !llvm.ptr, %out: !llvm.ptr) {
  %q = llvm.load %pp : !llvm.ptr -> !llvm.ptr
  %v = llvm.load %q : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// A pointer read from the kernel's own byval parameter is a launch
// argument too: global (CUDA forbids local or shared pointers there).
// CHECK-LABEL: llvm.func ptx_kernelcc @pointer_in_struct(
// CHECK: %[[Q:.*]] = llvm.load %{{.*}} : !llvm.ptr<101> -> !llvm.ptr
// CHECK-NEXT: %[[G:.*]] = llvm.addrspacecast %[[Q]] : !llvm.ptr to !llvm.ptr<1>
// CHECK-NEXT: llvm.load %[[G]] : !llvm.ptr<1> -> i32
// NOGLOBAL-LABEL: llvm.func ptx_kernelcc @pointer_in_struct(
// NOGLOBAL: %[[Q:.*]] = llvm.load %{{.*}} : !llvm.ptr<101> -> !llvm.ptr
// NOGLOBAL-NEXT: llvm.load %[[Q]] : !llvm.ptr -> i32
llvm.func ptx_kernelcc @pointer_in_struct(%s: !llvm.ptr {llvm.byval = !llvm.struct<(ptr, i32)>, llvm.align = 8 : i64}, %out: !llvm.ptr<1>) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  %q = llvm.load %p : !llvm.ptr<101> -> !llvm.ptr
  %v = llvm.load %q : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr<1>
  llvm.return
}

// -----

// Allocas are local: accesses to a generic alloca go through a local view.
// CHECK-LABEL: llvm.func @alloca_local(
// CHECK: %[[A:.*]] = llvm.alloca %{{.*}} x i32 : (i32) -> !llvm.ptr
// CHECK-NEXT: %[[L:.*]] = llvm.addrspacecast %[[A]] : !llvm.ptr to !llvm.ptr<5>
// CHECK-NEXT: llvm.store %{{.*}}, %[[L]] : i32, !llvm.ptr<5>
// CHECK-NEXT: llvm.load %[[L]] : !llvm.ptr<5> -> i32
llvm.func @alloca_local(%v: i32) -> i32 {
  %one = llvm.mlir.constant(1 : i32) : i32
  %a = llvm.alloca %one x i32 : (i32) -> !llvm.ptr
  llvm.store %v, %a : i32, !llvm.ptr
  %r = llvm.load %a : !llvm.ptr -> i32
  llvm.return %r : i32
}

// -----

// Atomics move to global and shared only (PTX has no local atomics);
// memory intrinsics move both operands.
// CHECK-LABEL: llvm.func ptx_kernelcc @atomics_and_memcpy(
// CHECK: llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic : !llvm.ptr<1>, i32
// CHECK: llvm.cmpxchg %{{.*}}, %{{.*}}, %{{.*}} acq_rel monotonic : !llvm.ptr<1>, i32
// CHECK: llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i32
// CHECK: "llvm.intr.memcpy"(%{{.*}}, %{{.*}}, %{{.*}}) <{isVolatile = false}> : (!llvm.ptr<5>, !llvm.ptr<1>, i64) -> ()
llvm.func ptx_kernelcc @atomics_and_memcpy(%g: !llvm.ptr, %v: i32, %n: i64) {
  %0 = llvm.atomicrmw add %g, %v monotonic : !llvm.ptr, i32
  %1 = llvm.cmpxchg %g, %v, %0 acq_rel monotonic : !llvm.ptr, i32
  %one = llvm.mlir.constant(1 : i32) : i32
  %a = llvm.alloca %one x !llvm.array<16 x i32> : (i32) -> !llvm.ptr
  %2 = llvm.atomicrmw add %a, %v monotonic : !llvm.ptr, i32
  "llvm.intr.memcpy"(%a, %g, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  llvm.call @use(%a) : (!llvm.ptr) -> ()
  llvm.return
}
llvm.func @use(!llvm.ptr)

// VALID: define

// -----

// Local pointers merged by a select or a phi stay generic: llc's SROA
// deletes the slots by speculating the loads through the merge, which a
// cast to the local space after it defeats (the copies of two byval
// parameters merged by a phi stayed in local memory, 32 bytes where llc
// alone has 20: fuzz seed 2095); llc's own address-space inference, after
// its SROA, finds the space of what is left. A slot used directly still
// gets its local view.
// CHECK-LABEL: llvm.func @merged_local(
// CHECK: %[[S:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, !llvm.ptr
// CHECK: llvm.load %[[S]] : !llvm.ptr -> i32
// CHECK: ^bb1(%[[PHI:.*]]: !llvm.ptr):
// CHECK: llvm.load %[[PHI]] : !llvm.ptr -> i32
// CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<5>
llvm.func @merged_local(%c: i1, %v: i32) -> i32 {
  %one = llvm.mlir.constant(1 : i32) : i32
  %a = llvm.alloca %one x i32 : (i32) -> !llvm.ptr
  %b = llvm.alloca %one x i32 : (i32) -> !llvm.ptr
  %s = llvm.select %c, %a, %b : i1, !llvm.ptr
  %x = llvm.load %s : !llvm.ptr -> i32
  llvm.cond_br %c, ^bb1(%a : !llvm.ptr), ^bb1(%b : !llvm.ptr)
^bb1(%phi: !llvm.ptr):
  %y = llvm.load %phi : !llvm.ptr -> i32
  llvm.store %v, %a : i32, !llvm.ptr
  %z = llvm.add %x, %y : i32
  llvm.return %z : i32
}

// -----

// An llvm.switch forwards its operands to block arguments as a branch does
// (issue 41, rule A's sibling: the lattice read only llvm.br/llvm.cond_br
// and left a switch's targets generic). Shared pointers on every edge: the
// merge is shared.
// CHECK-LABEL: llvm.func @switch_shared(
// CHECK: ^{{.*}}(%[[P:.*]]: !llvm.ptr):
// CHECK-NEXT: %[[L:.*]] = llvm.addrspacecast %[[P]] : !llvm.ptr to !llvm.ptr<3>
// CHECK-NEXT: llvm.load %[[L]] : !llvm.ptr<3> -> i32
llvm.func @switch_shared(%a: !llvm.ptr<3>, %b: !llvm.ptr<3>, %c: i32) -> i32 {
  %ga = llvm.addrspacecast %a : !llvm.ptr<3> to !llvm.ptr
  %gb = llvm.addrspacecast %b : !llvm.ptr<3> to !llvm.ptr
  llvm.switch %c : i32, ^merge(%ga : !llvm.ptr) [
    1: ^merge(%gb : !llvm.ptr),
    2: ^other
  ]
^other:
  llvm.br ^merge(%gb : !llvm.ptr)
^merge(%p: !llvm.ptr):
  %v = llvm.load %p : !llvm.ptr -> i32
  llvm.return %v : i32
}

// The counter-case: one case passes a generic pointer, and the merge stays
// generic.
// CHECK-LABEL: llvm.func @switch_generic(
// CHECK: ^{{.*}}(%[[P:.*]]: !llvm.ptr):
// CHECK-NEXT: llvm.load %[[P]] : !llvm.ptr -> i32
llvm.func @switch_generic(%a: !llvm.ptr<3>, %b: !llvm.ptr, %c: i32) -> i32 {
  %ga = llvm.addrspacecast %a : !llvm.ptr<3> to !llvm.ptr
  llvm.switch %c : i32, ^merge(%ga : !llvm.ptr) [
    1: ^merge(%b : !llvm.ptr)
  ]
^merge(%p: !llvm.ptr):
  %v = llvm.load %p : !llvm.ptr -> i32
  llvm.return %v : i32
}
