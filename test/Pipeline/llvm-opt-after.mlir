// llvm-opt-after: LLVM's optimizer runs on ptxcc's output before llc (MLIR
// compilers; upstream's gpu-module-to-binary). Then each function's scalar
// stack slots are promoted first (MLIR's mem2reg, what the optimizer does
// anyway), a kernel byval parameter is lowered when
// every use reads it at a known place or when the kernel writes it (ptxcc's
// copy: promote-local-arrays sees it, and a large one is a loop of wide
// accesses where llc's is a loop of bytes); one that only escapes or is
// memcpy'd is left as it is, for llc to lower after the optimizer (which
// deletes copies the -O0 shapes ask for); stack slots stay generic (a local
// view hides their alignment from the optimizer, which then cannot pair
// their stores).
// RUN: %ptxcc-opt %s --split-input-file --ptxcc-pipeline=llvm-opt-after=true | FileCheck %s --check-prefixes=CHECK,PIPE
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
// reloaded looks like a capture; the slot is promoted first, and then the
// struct is only read, from param space.
// CHECK-LABEL: llvm.func ptx_kernelcc @slot(
// CHECK-SAME: %[[S:[^:]*]]: !llvm.ptr {{{.*}}llvm.byval
// CHECK-NOT: llvm.alloca
// CHECK: %[[P:.*]] = llvm.addrspacecast %[[S]] : !llvm.ptr to !llvm.ptr<101>
// CHECK: %[[F:.*]] = llvm.getelementptr %[[P]][4]
// CHECK: llvm.load %[[F]] {{.*}}: !llvm.ptr<101> -> i32
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

// A written parameter is copied whatever the optimizer proves: ptxcc makes
// the copy, and promote-local-arrays turns the copy written and read at
// dynamic indices into registers (llc's copy, made after the optimizer,
// stays in local memory: 32 bytes of stack). The index sits in a stack
// slot, as at -O0.
// CHECK-LABEL: llvm.func ptx_kernelcc @written(
// CHECK-SAME: %[[M:[^:]*]]: !llvm.ptr {{{.*}}llvm.byval
// CHECK: %[[P:.*]] = llvm.addrspacecast %[[M]] : !llvm.ptr to !llvm.ptr<101>
// CHECK: %[[COPY:.*]] = llvm.alloca %{{.*}} x !llvm.array<8 x f32>
// CHECK: llvm.load %[[P]] {{.*}}: !llvm.ptr<101> -> i32
// CHECK: llvm.store %{{.*}}, %[[COPY]]
// PIPE: %[[W:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
// PIPE: llvm.icmp "eq" %[[W]]
// PIPE: llvm.select
// LLC-LABEL: llvm.func ptx_kernelcc @written(
// LLC: llvm.select
// PTX-LABEL: .entry written(
// PTX-NOT: .local
// PTX: ret;
llvm.func ptx_kernelcc @written(%m: !llvm.ptr {llvm.byval = !llvm.array<8 x f32>, llvm.align = 4 : i64}, %out: !llvm.ptr, %i: i32) {
  %one = llvm.mlir.constant(1 : i32) : i32
  %slot = llvm.alloca %one x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.store %i, %slot : i32, !llvm.ptr
  %seven = llvm.mlir.constant(7 : i32) : i32
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  %i0 = llvm.load %slot : !llvm.ptr -> i32
  %w = llvm.and %i0, %seven : i32
  %pw = llvm.getelementptr %m[0, %w] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  llvm.store %zero, %pw : f32, !llvm.ptr
  %i1 = llvm.load %slot : !llvm.ptr -> i32
  %j = llvm.add %i1, %one : i32
  %r = llvm.and %j, %seven : i32
  %pr = llvm.getelementptr %m[0, %r] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %v = llvm.load %pr : !llvm.ptr -> f32
  llvm.store %v, %out : f32, !llvm.ptr
  llvm.return
}

// -----

// A large written parameter: ptxcc's copy loop of 16-byte accesses (64
// iterations for 1 KB, unrolled by nobody), where llc's memcpy after the
// optimizer is a loop of 1,024 single bytes.
// CHECK-LABEL: llvm.func ptx_kernelcc @large(
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<101> -> vector<4xi32>
// CHECK: llvm.cond_br {{.*}} {loop_annotation = #{{.*}}}
// LLC-LABEL: llvm.func ptx_kernelcc @large(
// LLC: !llvm.ptr<101> -> vector<4xi32>
// PTX-LABEL: .entry large(
// PTX: .local .align 16 .b8 __local_depot{{[0-9]+}}[1024];
// PTX: .pragma "nounroll";
// PTX: ld.param.v4.b32
// PTX: st.local.v4.b32
// PTX-NOT: ld.param.b8
// PTX: ret;
llvm.func ptx_kernelcc @large(%b: !llvm.ptr {llvm.byval = !llvm.array<256 x i32>, llvm.align = 16 : i64}, %out: !llvm.ptr, %i: i32) {
  %mask = llvm.mlir.constant(255 : i32) : i32
  %w = llvm.and %i, %mask : i32
  %pw = llvm.getelementptr %b[0, %w] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<256 x i32>
  llvm.store %i, %pw : i32, !llvm.ptr
  %three = llvm.mlir.constant(3 : i32) : i32
  %k = llvm.mul %i, %three : i32
  %r = llvm.and %k, %mask : i32
  %pr = llvm.getelementptr %b[0, %r] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<256 x i32>
  %v = llvm.load %pr : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// A local array filled in a loop whose counter lives in a stack slot (-O0):
// the counter's slot is promoted first, so promote-local-arrays counts the
// loop, unrolls it and keeps the array in registers.
// CHECK-LABEL: llvm.func ptx_kernelcc @counter(
// CHECK-NOT: x i32 {
// PIPE: llvm.getelementptr %{{.*}}[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x i32>
// PIPE: llvm.getelementptr %{{.*}}[0, 7] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x i32>
// PIPE: llvm.select
// LLC-LABEL: llvm.func ptx_kernelcc @counter(
// LLC: llvm.alloca %{{.*}} x i32
// PTX-LABEL: .entry counter(
// PTX-NOT: .local
// PTX: ret;
llvm.func ptx_kernelcc @counter(%in: !llvm.ptr, %out: !llvm.ptr, %k: i32) {
  %one = llvm.mlir.constant(1 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %c7 = llvm.mlir.constant(7 : i32) : i32
  %a = llvm.alloca %one x !llvm.array<8 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %j = llvm.alloca %one x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.store %c0, %j : i32, !llvm.ptr
  llvm.br ^head
^head:
  %jv = llvm.load %j : !llvm.ptr -> i32
  %more = llvm.icmp "slt" %jv, %c8 : i32
  llvm.cond_br %more, ^body, ^done
^body:
  %jb = llvm.load %j : !llvm.ptr -> i32
  %src = llvm.getelementptr %in[%jb] : (!llvm.ptr, i32) -> !llvm.ptr, i32
  %x = llvm.load %src : !llvm.ptr -> i32
  %dst = llvm.getelementptr %a[0, %jb] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<8 x i32>
  llvm.store %x, %dst : i32, !llvm.ptr
  %next = llvm.add %jb, %one : i32
  llvm.store %next, %j : i32, !llvm.ptr
  llvm.br ^head
^done:
  %ki = llvm.and %k, %c7 : i32
  %pk = llvm.getelementptr %a[0, %ki] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<8 x i32>
  %v = llvm.load %pk : !llvm.ptr -> i32
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
