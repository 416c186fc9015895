// lower-struct-args on nested modules that define the same name: no
// crash, and both definitions keep their signatures.
// RUN: %ptxcc-opt %s --lower-struct-args | FileCheck %s

// The same name in two nested modules: which call reaches which definition
// is left to the symbol table, and both keep their signatures.
// CHECK-LABEL: module @a
// CHECK: llvm.func internal @twin(%{{.*}}: !llvm.struct<(f32, f32)>) -> f32
// CHECK-LABEL: module @b
// CHECK: llvm.func internal @twin(%{{.*}}: !llvm.struct<(f32, f32)>) -> f32
module @a {
  llvm.func internal @twin(%v: !llvm.struct<(f32, f32)>) -> f32 {
    %x = llvm.extractvalue %v[0] : !llvm.struct<(f32, f32)>
    llvm.return %x : f32
  }
  llvm.func @use_a(%v: !llvm.struct<(f32, f32)>) -> f32 {
    %r = llvm.call @twin(%v) : (!llvm.struct<(f32, f32)>) -> f32
    llvm.return %r : f32
  }
}
module @b {
  llvm.func internal @twin(%v: !llvm.struct<(f32, f32)>) -> f32 {
    %x = llvm.extractvalue %v[1] : !llvm.struct<(f32, f32)>
    llvm.return %x : f32
  }
  llvm.func @use_b(%v: !llvm.struct<(f32, f32)>) -> f32 {
    %r = llvm.call @twin(%v) : (!llvm.struct<(f32, f32)>) -> f32
    llvm.return %r : f32
  }
}
