// llvm-opt-after: LLVM's optimizer runs on ptxcc's output before llc (MLIR
// compilers; upstream's gpu-module-to-binary). Then a kernel byval parameter
// is lowered only when every use reads it at a known place; one that is
// copied, escapes or is memcpy'd is left as it is, for llc to lower after the
// optimizer (which deletes copies the -O0 shapes ask for); stack slots stay
// generic (a local view hides their alignment from the optimizer, which then
// cannot pair their stores).
// RUN: %ptxcc-opt %s --split-input-file --ptxcc-pipeline=llvm-opt-after=true | FileCheck %s
// RUN: %ptxcc-opt %s --split-input-file --ptxcc-pipeline=llvm-opt-after=false | FileCheck %s --check-prefix=LLC
// Each pass has the option; the pipeline hands its one value to all three:
// RUN: %ptxcc-opt %s --split-input-file --lower-struct-args=llvm-opt-after=true --lower-alloca=llvm-opt-after=true --memory-space-opt=llvm-opt-after=true --convert-ptxcc-to-llvm | FileCheck %s
// The result is valid PTX after opt -O3:
// RUN: %ptxcc-opt %s --ptxcc-pipeline=llvm-opt-after=true | %to-llvmir | %opt-O3-sm90 | %llc-sm90 | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: llvm.func ptx_kernelcc @reads(
// CHECK: llvm.load %{{.*}} : !llvm.ptr<101> -> i32
// LLC-LABEL: llvm.func ptx_kernelcc @reads(
// LLC: llvm.load %{{.*}} : !llvm.ptr<101> -> i32
// PTX-LABEL: .entry reads(
// PTX-NOT: .local
// PTX: ld.param.b32 {{.*}}[reads_param_0+4]
llvm.func ptx_kernelcc @reads(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %out: !llvm.ptr) {
  %f = llvm.getelementptr %s[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32)>
  %v = llvm.load %f : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// clang -O0's way of passing a struct on: a memcpy into a temporary passed
// byval. The optimizer forwards the parameter and deletes the temporary
// when it still sees the memcpy; an expanded copy it keeps.
// CHECK-LABEL: llvm.func ptx_kernelcc @forwards(
// CHECK-SAME: %[[S:[^:]*]]: !llvm.ptr {{{.*}}llvm.byval
// CHECK-NOT: addrspacecast %[[S]]
// CHECK: "llvm.intr.memcpy"(%{{.*}}, %[[S]]
// LLC-LABEL: llvm.func ptx_kernelcc @forwards(
// LLC-NOT: "llvm.intr.memcpy"
// LLC: llvm.load %{{.*}} : !llvm.ptr<101>
// PTX-LABEL: .entry forwards(
// PTX-NOT: .local
// PTX: ld.param.b32 {{.*}}[forwards_param_0]
// PTX: ret;
llvm.func internal @take(%p: !llvm.ptr {llvm.byval = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>}) -> f32 attributes {no_inline} {
  %v = llvm.load %p : !llvm.ptr -> f32
  llvm.return %v : f32
}
llvm.func ptx_kernelcc @forwards(%s: !llvm.ptr {llvm.byval = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, llvm.align = 4 : i64}, %out: !llvm.ptr) {
  %one = llvm.mlir.constant(1 : i32) : i32
  %tmp = llvm.alloca %one x !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %size = llvm.mlir.constant(32 : i64) : i64
  "llvm.intr.memcpy"(%tmp, %s, %size) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  %r = llvm.call @take(%tmp) : (!llvm.ptr {llvm.byval = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>}) -> f32
  llvm.store %r, %out : f32, !llvm.ptr
  llvm.return
}

// -----

// The -O0 shape of a pointer: the struct's address stored to a slot and
// reloaded looks like a capture before the optimizer; after it the struct
// is only read, which llc then reads from param space.
// CHECK-LABEL: llvm.func ptx_kernelcc @slot(
// CHECK-SAME: %[[S:[^:]*]]: !llvm.ptr {{{.*}}llvm.byval
// CHECK: llvm.store %[[S]], %{{.*}} : !llvm.ptr, !llvm.ptr
// CHECK-NOT: "ptxcc.
// LLC-LABEL: llvm.func ptx_kernelcc @slot(
// LLC: llvm.alloca %{{.*}} x !llvm.struct<(i32, i32)>
// PTX-LABEL: .entry slot(
// PTX-NOT: .local
// PTX: ld.param.b32 {{.*}}[slot_param_0+4]
llvm.func ptx_kernelcc @slot(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %out: !llvm.ptr) {
  %one = llvm.mlir.constant(1 : i32) : i32
  %slot = llvm.alloca %one x !llvm.ptr {alignment = 8 : i64} : (i32) -> !llvm.ptr
  llvm.store %s, %slot : !llvm.ptr, !llvm.ptr
  %p = llvm.load %slot : !llvm.ptr -> !llvm.ptr
  %f = llvm.getelementptr %p[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32)>
  %v = llvm.load %f : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// A stack slot stays generic; llc moves it to local memory after the
// optimizer, which knows its alignment and pairs the stores
// (st.local.v2.b32), as upstream's non-portable-cluster-launch showed.
// CHECK-LABEL: llvm.func ptx_kernelcc @slots(
// CHECK-NOT: !llvm.ptr<5>
// CHECK: llvm.call @vprintf
// LLC-LABEL: llvm.func ptx_kernelcc @slots(
// LLC: llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<5>
// PTX-LABEL: .entry slots(
// PTX: st.local.v2.b32
// PTX: st.local.v2.b32
llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
llvm.func ptx_kernelcc @slots(%a: i32, %b: i32, %c: i32, %d: i32, %fmt: !llvm.ptr) {
  %one = llvm.mlir.constant(1 : i64) : i64
  %s = llvm.alloca %one x !llvm.struct<(i32, i32, i32, i32, i32)> : (i64) -> !llvm.ptr
  %p0 = llvm.getelementptr %s[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32, i32, i32, i32)>
  llvm.store %a, %p0 : i32, !llvm.ptr
  %p1 = llvm.getelementptr %s[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32, i32, i32, i32)>
  llvm.store %b, %p1 : i32, !llvm.ptr
  %p2 = llvm.getelementptr %s[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32, i32, i32, i32)>
  llvm.store %c, %p2 : i32, !llvm.ptr
  %p3 = llvm.getelementptr %s[0, 3] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32, i32, i32, i32)>
  llvm.store %d, %p3 : i32, !llvm.ptr
  %p4 = llvm.getelementptr %s[0, 4] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32, i32, i32, i32)>
  llvm.store %d, %p4 : i32, !llvm.ptr
  %r = llvm.call @vprintf(%fmt, %s) : (!llvm.ptr, !llvm.ptr) -> i32
  llvm.return
}
