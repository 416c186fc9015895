// An externally visible device function whose signature changes is split
// into an internal clone (its body, with the lowered ABI) and a wrapper
// (the public symbol). The clone keeps the function's debug-info
// subprogram; the wrapper must name none, since LLVM allows one function
// per subprogram. Front ends that name their functions (Triton) wrap the
// subprogram in a name location, others in a call site or a fused location
// inside a fused one: each form kept the subprogram on the wrapper too, and
// --emit=llvm failed with "DISubprogram attached to more than one
// function" and no location (issue 40; the plain fused form was fixed
// before).
// RUN: %ptxcc-opt %s -split-input-file --ptxcc-pipeline --mlir-print-debuginfo | FileCheck %s
// RUN: %ptxcc-opt %s -split-input-file --ptxcc-pipeline --emit=llvm | FileCheck %s --check-prefix=LLVM
// What ptxcc-opt prints with --mlir-print-debuginfo translates too.
// RUN: %ptxcc-opt %s -split-input-file --ptxcc-pipeline --mlir-print-debuginfo | %to-llvmir --split-input-file -o %t.ll

#file = #llvm.di_file<"f.cu" in "/src">
#unit = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C_plus_plus_14, file = #file, producer = "test", isOptimized = true, emissionKind = DebugDirectivesOnly>
#type = #llvm.di_subroutine_type<>
#sp = #llvm.di_subprogram<id = distinct[1]<>, compileUnit = #unit, scope = #file, name = "scale", file = #file, line = 1, scopeLine = 1, subprogramFlags = "Definition|Optimized", type = #type>
#spk = #llvm.di_subprogram<id = distinct[2]<>, compileUnit = #unit, scope = #file, name = "k", file = #file, line = 5, scopeLine = 5, subprogramFlags = "Definition|Optimized", type = #type>

// CHECK: #[[PLAIN:loc[0-9]*]] = loc("/src/f.cu":1:1)
// CHECK: #[[WRAPPER:loc[0-9]*]] = loc("scale"(#[[PLAIN]]))
// CHECK-LABEL: llvm.func internal @scale_ptxcc(
// CHECK: } loc(#[[CLONE:loc[0-9]*]])
// CHECK-LABEL: llvm.func @scale(
// CHECK: } loc(#[[WRAPPER]])
// CHECK: #[[WITH_SP:loc[0-9]*]] = loc(fused<#di_subprogram>[#[[PLAIN]]])
// CHECK: #[[CLONE]] = loc("scale"(#[[WITH_SP]]))
// LLVM: define internal float @scale_ptxcc({{.*}}) {{.*}}!dbg
// LLVM: define float @scale(ptr {{.*}}) {{[^!]*}}{
llvm.func @scale(%v: !llvm.ptr {llvm.byval = !llvm.struct<(f32, f32)>, llvm.align = 4 : i64}, %s: f32) -> f32 {
  %x = llvm.load %v {alignment = 4 : i64} : !llvm.ptr -> f32 loc(fused<#sp>["/src/f.cu":2:3])
  %r = llvm.fmul %x, %s : f32 loc(fused<#sp>["/src/f.cu":2:3])
  llvm.return %r : f32 loc(fused<#sp>["/src/f.cu":2:3])
} loc("scale"(fused<#sp>["/src/f.cu":1:1]))
llvm.func ptx_kernelcc @k(%v: !llvm.ptr {llvm.byval = !llvm.struct<(f32, f32)>, llvm.align = 4 : i64}, %s: f32, %out: !llvm.ptr) {
  %r = llvm.call @scale(%v, %s) : (!llvm.ptr, f32) -> f32 loc(fused<#spk>["/src/f.cu":6:3])
  llvm.store %r, %out {alignment = 4 : i64} : f32, !llvm.ptr loc(fused<#spk>["/src/f.cu":6:3])
  llvm.return loc(fused<#spk>["/src/f.cu":7:1])
} loc(fused<#spk>["/src/f.cu":5:1])

// -----

#file = #llvm.di_file<"f.cu" in "/src">
#unit = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C_plus_plus_14, file = #file, producer = "test", isOptimized = true, emissionKind = DebugDirectivesOnly>
#type = #llvm.di_subroutine_type<>
#sp = #llvm.di_subprogram<id = distinct[1]<>, compileUnit = #unit, scope = #file, name = "scale", file = #file, line = 1, scopeLine = 1, subprogramFlags = "Definition|Optimized", type = #type>
#spk = #llvm.di_subprogram<id = distinct[2]<>, compileUnit = #unit, scope = #file, name = "k", file = #file, line = 5, scopeLine = 5, subprogramFlags = "Definition|Optimized", type = #type>


// LLVM: define internal float @scale_fused_in_fused_ptxcc({{.*}}) {{.*}}!dbg
// LLVM: define float @scale_fused_in_fused(ptr {{.*}}) {{[^!]*}}{
llvm.func @scale_fused_in_fused(%v: !llvm.ptr {llvm.byval = !llvm.struct<(f32, f32)>, llvm.align = 4 : i64}, %s: f32) -> f32 {
  %x = llvm.load %v {alignment = 4 : i64} : !llvm.ptr -> f32 loc(fused<#sp>["/src/f.cu":2:3])
  %r = llvm.fmul %x, %s : f32 loc(fused<#sp>["/src/f.cu":2:3])
  llvm.return %r : f32 loc(fused<#sp>["/src/f.cu":2:3])
} loc(fused[fused<#sp>["/src/f.cu":1:1], "/src/g.cu":9:9])
llvm.func ptx_kernelcc @k_fused_in_fused(%v: !llvm.ptr {llvm.byval = !llvm.struct<(f32, f32)>, llvm.align = 4 : i64}, %s: f32, %out: !llvm.ptr) {
  %r = llvm.call @scale_fused_in_fused(%v, %s) : (!llvm.ptr, f32) -> f32 loc(fused<#spk>["/src/f.cu":6:3])
  llvm.store %r, %out {alignment = 4 : i64} : f32, !llvm.ptr loc(fused<#spk>["/src/f.cu":6:3])
  llvm.return loc(fused<#spk>["/src/f.cu":7:1])
} loc(fused<#spk>["/src/f.cu":5:1])

// -----

#file = #llvm.di_file<"f.cu" in "/src">
#unit = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C_plus_plus_14, file = #file, producer = "test", isOptimized = true, emissionKind = DebugDirectivesOnly>
#type = #llvm.di_subroutine_type<>
#sp = #llvm.di_subprogram<id = distinct[1]<>, compileUnit = #unit, scope = #file, name = "scale", file = #file, line = 1, scopeLine = 1, subprogramFlags = "Definition|Optimized", type = #type>
#spk = #llvm.di_subprogram<id = distinct[2]<>, compileUnit = #unit, scope = #file, name = "k", file = #file, line = 5, scopeLine = 5, subprogramFlags = "Definition|Optimized", type = #type>


// LLVM: define internal float @scale_callsite_ptxcc({{.*}}) {{.*}}!dbg
// LLVM: define float @scale_callsite(ptr {{.*}}) {{[^!]*}}{
llvm.func @scale_callsite(%v: !llvm.ptr {llvm.byval = !llvm.struct<(f32, f32)>, llvm.align = 4 : i64}, %s: f32) -> f32 {
  %x = llvm.load %v {alignment = 4 : i64} : !llvm.ptr -> f32 loc(fused<#sp>["/src/f.cu":2:3])
  %r = llvm.fmul %x, %s : f32 loc(fused<#sp>["/src/f.cu":2:3])
  llvm.return %r : f32 loc(fused<#sp>["/src/f.cu":2:3])
} loc(callsite(fused<#sp>["/src/f.cu":1:1] at "/src/g.cu":9:9))
llvm.func ptx_kernelcc @k_callsite(%v: !llvm.ptr {llvm.byval = !llvm.struct<(f32, f32)>, llvm.align = 4 : i64}, %s: f32, %out: !llvm.ptr) {
  %r = llvm.call @scale_callsite(%v, %s) : (!llvm.ptr, f32) -> f32 loc(fused<#spk>["/src/f.cu":6:3])
  llvm.store %r, %out {alignment = 4 : i64} : f32, !llvm.ptr loc(fused<#spk>["/src/f.cu":6:3])
  llvm.return loc(fused<#spk>["/src/f.cu":7:1])
} loc(fused<#spk>["/src/f.cu":5:1])
