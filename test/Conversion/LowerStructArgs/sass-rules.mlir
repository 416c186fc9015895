// Device-function rules that issue 30 changed because of what ptxas makes
// of their PTX (ptxas 13.5, sm_90): flattening that would put parameters on
// the stack, a byval parameter read outside the entry block or copied whole
// (clang -O0), and the clone of an address-taken function.
// RUN: %ptxcc-opt %s --split-input-file --lower-struct-args | FileCheck %s
// RUN: %ptxcc-opt %s --split-input-file --lower-struct-args=flatten-always=true | FileCheck %s --check-prefix=ALWAYS
// The whole pipeline's PTX (assembled by the llc wrapper), and ptxas's
// figures for it: no stack where flattening (flatten-always) takes 32
// bytes in calls_many, and none in copies_whole, where llc alone's PTX
// of this file takes 8 (it reads the byval parameter through its address).
// RUN: %ptxcc-opt %s --ptxcc-pipeline | %to-llvmir | %llc-sm90 -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -c -v %t.ptx -o %t.o 2>&1 | FileCheck %s --check-prefix=SASS %}
// RUN: %ptxcc-opt %s --ptxcc-pipeline=flatten-always=true | %to-llvmir | %llc-sm90 -o %t.always.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -c -v %t.always.ptx -o %t.always.o 2>&1 | FileCheck %s --check-prefix=SASS-ALWAYS %}
// RUN: %to-llvmir %s | %llc-sm90 -o %t.llc.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -c -v %t.llc.ptx -o %t.llc.o 2>&1 | FileCheck %s --check-prefix=SASS-LLC %}

// SASS-LABEL: Function properties for copies_whole
// SASS-NEXT: 0 bytes stack frame
// SASS-LABEL: Function properties for calls_many
// SASS-NEXT: 0 bytes stack frame
// SASS-ALWAYS-LABEL: Function properties for calls_many
// SASS-ALWAYS-NEXT: 32 bytes stack frame
// SASS-LLC-LABEL: Function properties for copies_whole
// SASS-LLC-NEXT: 8 bytes stack frame

// (a) Ten leaves where llc gives each f16 of a local function a 16-aligned
// .param: flattened, the parameters need more than twelve registers and
// the last go on the stack; kept, the aggregate's 28 bytes fit.
// CHECK-LABEL: llvm.func internal @many_leaves(%{{.*}}: !llvm.struct<(f32, f16, i8, f16, f32, f16, i8, f16, i32)>) -> f32
// CHECK-LABEL: llvm.func ptx_kernelcc @calls_many(
// CHECK: llvm.call @many_leaves(%{{.*}}) : (!llvm.struct<(f32, f16, i8, f16, f32, f16, i8, f16, i32)>) -> f32
// ALWAYS-LABEL: llvm.func internal @many_leaves(%{{.*}}: f32, %{{.*}}: f16, %{{.*}}: i8, %{{.*}}: f16, %{{.*}}: f32, %{{.*}}: f16, %{{.*}}: i8, %{{.*}}: f16, %{{.*}}: i32) -> f32
llvm.func internal @many_leaves(%s: !llvm.struct<(f32, f16, i8, f16, f32, f16, i8, f16, i32)>) -> f32 {
  %a = llvm.extractvalue %s[0] : !llvm.struct<(f32, f16, i8, f16, f32, f16, i8, f16, i32)>
  %b = llvm.extractvalue %s[4] : !llvm.struct<(f32, f16, i8, f16, f32, f16, i8, f16, i32)>
  %c = llvm.fadd %a, %b : f32
  llvm.return %c : f32
}
llvm.func ptx_kernelcc @calls_many(%p: !llvm.ptr<1>, %out: !llvm.ptr<1>) {
  %s = llvm.load %p : !llvm.ptr<1> -> !llvm.struct<(f32, f16, i8, f16, f32, f16, i8, f16, i32)>
  %r = llvm.call @many_leaves(%s) : (!llvm.struct<(f32, f16, i8, f16, f32, f16, i8, f16, i32)>) -> f32
  llvm.store %r, %out : f32, !llvm.ptr<1>
  llvm.return
}

// -----

// (b) A byval parameter read in a loop (outside the entry block).
// CHECK-LABEL: llvm.func internal @loop_reader(
// CHECK-SAME: %[[S:.*]]: !llvm.struct<(f32, f32, f32, f32)>, %{{.*}}: i32) -> f32
// CHECK-NEXT: %[[X:.*]] = llvm.extractvalue %[[S]][0]
// CHECK-NEXT: %[[Y:.*]] = llvm.extractvalue %[[S]][3]
// CHECK: ^bb1(
// CHECK-NOT: llvm.load
// CHECK: llvm.fadd %[[X]], %[[Y]] : f32
// CHECK-LABEL: llvm.func ptx_kernelcc @calls_loop(
// CHECK: %[[V:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: llvm.call @loop_reader(%[[V]], %{{.*}}) : (!llvm.struct<(f32, f32, f32, f32)>, i32) -> f32
llvm.func internal @loop_reader(%s: !llvm.ptr {llvm.byval = !llvm.struct<(f32, f32, f32, f32)>}, %n: i32) -> f32 {
  %zero = llvm.mlir.constant(0 : i32) : i32
  %fzero = llvm.mlir.constant(0.0 : f32) : f32
  %one = llvm.mlir.constant(1 : i32) : i32
  llvm.br ^loop(%zero, %fzero : i32, f32)
^loop(%i: i32, %acc: f32):
  %x = llvm.load %s : !llvm.ptr -> f32
  %w = llvm.getelementptr %s[0, 3] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(f32, f32, f32, f32)>
  %y = llvm.load %w : !llvm.ptr -> f32
  %t = llvm.fadd %x, %y : f32
  %acc2 = llvm.fadd %acc, %t : f32
  %i2 = llvm.add %i, %one : i32
  %more = llvm.icmp "slt" %i2, %n : i32
  llvm.cond_br %more, ^loop(%i2, %acc2 : i32, f32), ^done
^done:
  llvm.return %acc2 : f32
}
llvm.func ptx_kernelcc @calls_loop(%p: !llvm.ptr<1>, %out: !llvm.ptr<1>, %n: i32) {
  %g = llvm.addrspacecast %p : !llvm.ptr<1> to !llvm.ptr
  %r = llvm.call @loop_reader(%g, %n) : (!llvm.ptr {llvm.byval = !llvm.struct<(f32, f32, f32, f32)>}, i32) -> f32
  llvm.store %r, %out : f32, !llvm.ptr<1>
  llvm.return
}

// -----

// (c) clang -O0's shape: the callee copies its byval parameter whole into a
// variable (here after the entry block, as in a loop) and reads the
// variable.
// CHECK-LABEL: llvm.func internal @copies_whole(
// CHECK-SAME: %[[S:.*]]: !llvm.struct<(f32, f32, f32, f32)>) -> f32
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK: ^bb1:
// CHECK-NEXT: llvm.store %[[S]], %[[SLOT]] {alignment = 4 : i64} : !llvm.struct<(f32, f32, f32, f32)>, !llvm.ptr
// CHECK-NOT: llvm.intr.memcpy
// CHECK-LABEL: llvm.func ptx_kernelcc @calls_copies(
// CHECK: llvm.call @copies_whole(%{{.*}}) : (!llvm.struct<(f32, f32, f32, f32)>) -> f32
llvm.func internal @copies_whole(%s: !llvm.ptr {llvm.byval = !llvm.struct<(f32, f32, f32, f32)>}) -> f32 {
  %one = llvm.mlir.constant(1 : i32) : i32
  %size = llvm.mlir.constant(16 : i64) : i64
  %v = llvm.alloca %one x !llvm.struct<(f32, f32, f32, f32)> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.br ^copy
^copy:
  "llvm.intr.memcpy"(%v, %s, %size) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  %w = llvm.getelementptr %v[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(f32, f32, f32, f32)>
  %x = llvm.load %w : !llvm.ptr -> f32
  llvm.return %x : f32
}
llvm.func ptx_kernelcc @calls_copies(%p: !llvm.ptr<1>, %out: !llvm.ptr<1>) {
  %g = llvm.addrspacecast %p : !llvm.ptr<1> to !llvm.ptr
  %r = llvm.call @copies_whole(%g) : (!llvm.ptr {llvm.byval = !llvm.struct<(f32, f32, f32, f32)>}) -> f32
  llvm.store %r, %out : f32, !llvm.ptr<1>
  llvm.return
}

// -----

// (d) An externally visible function whose address is taken, whose clone
// would only take its aggregate value as leaves: no clone (the module's
// indirect calls would reach a wrapper that calls the clone).
// CHECK-LABEL: llvm.func @taken_value(%{{.*}}: !llvm.struct<(f32, f32)>) -> f32
// CHECK-NOT: _ptxcc
// CHECK-LABEL: llvm.func @takes_address(
// CHECK: llvm.call @taken_value(%{{.*}}) : (!llvm.struct<(f32, f32)>) -> f32
llvm.func @taken_value(%s: !llvm.struct<(f32, f32)>) -> f32 {
  %a = llvm.extractvalue %s[0] : !llvm.struct<(f32, f32)>
  llvm.return %a : f32
}
llvm.func @takes_address(%s: !llvm.struct<(f32, f32)>, %out: !llvm.ptr<1>) {
  %r = llvm.call @taken_value(%s) : (!llvm.struct<(f32, f32)>) -> f32
  %f = llvm.mlir.addressof @taken_value : !llvm.ptr
  %r2 = llvm.call %f(%s) : !llvm.ptr, (!llvm.struct<(f32, f32)>) -> f32
  %t = llvm.fadd %r, %r2 : f32
  llvm.store %t, %out : f32, !llvm.ptr<1>
  llvm.return
}
