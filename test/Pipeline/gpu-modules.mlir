// ptxcc on gpu.modules: each is its own symbol table and is lowered on its
// own, at the top level exactly as nested under gpu.module; the chip and
// PTX version come from its #nvvm.target under chip=auto; kernels launched
// from host code keep their signature.
// (flatten-always: the pairs below cross as one .v2 left alone, so seed
// 000's flattening shows each module's own rewrite.)
// RUN: %ptxcc-opt %s --split-input-file --ptxcc-pipeline=flatten-always=true -o %t.top.mlir
// RUN: %ptxcc-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(ptxcc-pipeline{flatten-always=true}))' -o %t.nested.mlir
// RUN: diff %t.top.mlir %t.nested.mlir
// RUN: FileCheck %s < %t.top.mlir
// RUN: %ptxcc-opt %s --split-input-file --ptxcc-pipeline=flatten-kernel-args=true | FileCheck %s --check-prefix=FLAT
// RUN: %ptxcc-opt %s --split-input-file --ptxcc-pipeline=llvm-opt-after=false | FileCheck %s --check-prefix=TARGET

// Two gpu.modules define a private @scale each; each is flattened with its
// own calls (one symbol table per gpu.module). No gpu.container_module and
// no host code: the record of opt-byval goes on each gpu.module, as the
// nested run puts it.
// CHECK: module {
// CHECK-NEXT: gpu.module @a attributes {ptxcc.opt_byval = true}
// CHECK-LABEL: llvm.func @scale(
// CHECK-SAME: %{{.*}}: f32, %{{.*}}: f32) -> f32
// CHECK-LABEL: llvm.func @ka(
// CHECK: llvm.call @scale(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: gpu.module @b attributes {ptxcc.opt_byval = true}
// CHECK-LABEL: llvm.func @scale(
// CHECK-SAME: %{{.*}}: i32, %{{.*}}: i32) -> i32
// FLAT-LABEL: llvm.func @ka(
// FLAT-SAME: %{{.*}}: !llvm.ptr {llvm.byval = !llvm.struct<(f32, f32)>}
module {
  gpu.module @a {
    llvm.func @scale(%v: !llvm.struct<(f32, f32)>) -> f32 attributes {sym_visibility = "private"} {
      %x = llvm.extractvalue %v[0] : !llvm.struct<(f32, f32)>
      %y = llvm.extractvalue %v[1] : !llvm.struct<(f32, f32)>
      %r = llvm.fmul %x, %y : f32
      llvm.return %r : f32
    }
    // A kernel launched from host code (gpu.launch_func elsewhere): its
    // byval parameter stays, even with flatten-kernel-args.
    llvm.func @ka(%s: !llvm.ptr {llvm.byval = !llvm.struct<(f32, f32)>}, %out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %v = llvm.load %s : !llvm.ptr -> !llvm.struct<(f32, f32)>
      %r = llvm.call @scale(%v) : (!llvm.struct<(f32, f32)>) -> f32
      llvm.store %r, %out : f32, !llvm.ptr
      llvm.return
    }
  }
  gpu.module @b {
    llvm.func @scale(%v: !llvm.struct<(i32, i32)>) -> i32 attributes {sym_visibility = "private"} {
      %x = llvm.extractvalue %v[0] : !llvm.struct<(i32, i32)>
      %y = llvm.extractvalue %v[1] : !llvm.struct<(i32, i32)>
      %r = llvm.mul %x, %y : i32
      llvm.return %r : i32
    }
    llvm.func @kb(%a: i32, %out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %u = llvm.mlir.undef : !llvm.struct<(i32, i32)>
      %v0 = llvm.insertvalue %a, %u[0] : !llvm.struct<(i32, i32)>
      %v1 = llvm.insertvalue %a, %v0[1] : !llvm.struct<(i32, i32)>
      %r = llvm.call @scale(%v1) : (!llvm.struct<(i32, i32)>) -> i32
      llvm.store %r, %out : i32, !llvm.ptr
      llvm.return
    }
  }
}

// -----

// The target comes from the gpu.module: sm_60 has no cvta.param, so a byval
// struct whose address escapes to a reading call is copied; on sm_90 it is
// a grid constant (with llvm-opt-after=false: llc comes next). By default the #nvvm.target O
// level (2 when left out) says LLVM's optimizer runs first
// (llvm-opt-after=auto): an escaping byval is left as it is, for llc to
// lower after the optimizer.
// TARGET: module attributes {gpu.container_module} {
// TARGET-LABEL: gpu.module @old [#nvvm.target<chip = "sm_60">]
// TARGET-LABEL: llvm.func @k(
// TARGET: %[[COPY:.*]] = llvm.alloca
// TARGET: llvm.call @consume(%[[COPY]])
// TARGET-LABEL: gpu.module @new [#nvvm.target<chip = "sm_90", features = "+ptx80">]
// TARGET-LABEL: llvm.func @k(
// TARGET-SAME: nvvm.grid_constant
// TARGET-NOT: llvm.alloca
// TARGET: llvm.call @consume(
// CHECK: module attributes {gpu.container_module} {
// CHECK-LABEL: gpu.module @old [#nvvm.target<chip = "sm_60">]
// CHECK-LABEL: llvm.func @k(
// CHECK-SAME: %[[S:[^:]*]]: !llvm.ptr {llvm.byval
// CHECK-NEXT: llvm.call @consume(%[[S]])
// CHECK-LABEL: gpu.module @new [#nvvm.target<chip = "sm_90", features = "+ptx80">]
// CHECK-LABEL: llvm.func @k(
// CHECK-SAME: %[[S:[^:]*]]: !llvm.ptr {llvm.byval
// CHECK-NEXT: llvm.call @consume(%[[S]])
module attributes {gpu.container_module} {
  gpu.module @old [#nvvm.target<chip = "sm_60">] {
    llvm.func @consume(!llvm.ptr {llvm.readonly, llvm.nocapture})
    llvm.func @k(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}) attributes {gpu.kernel, nvvm.kernel} {
      llvm.call @consume(%s) : (!llvm.ptr) -> ()
      llvm.return
    }
  }
  gpu.module @new [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
    llvm.func @consume(!llvm.ptr {llvm.readonly, llvm.nocapture})
    llvm.func @k(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}) attributes {gpu.kernel, nvvm.kernel} {
      llvm.call @consume(%s) : (!llvm.ptr) -> ()
      llvm.return
    }
  }
}
