; LLVM IR in, PTX out, in one tool: ptxcc-opt imports LLVM IR (text or
; bitcode) in process, keeping the "nvvm.grid_constant" parameter attribute
; that __grid_constant__ produces (mlir-translate --import-llvm drops it,
; and each kernel below then gets a local copy of its struct), and kernels
; and grid constants marked the old way, through !nvvm.annotations.
; --emit=ptx runs LLVM's NVPTX backend in process; its PTX is the two-tool
; path's (mlir-translate --mlir-to-llvmir | llc) byte for byte.
;
; RUN: %ptxcc-opt %s | FileCheck %s --check-prefix=IMPORT
; RUN: %ptxcc-opt %s --ptxcc-pipeline='chip=sm_90 ptx=80' --emit=ptx -o %t.one.ptx
; RUN: FileCheck %s --check-prefix=PTX < %t.one.ptx
; RUN: %ptxas-check %t.one.ptx
; RUN: %ptxcc-opt %s --ptxcc-pipeline='chip=sm_90 ptx=80' | %to-llvmir | %llc-sm90 -o %t.two.ptx
; RUN: diff %t.one.ptx %t.two.ptx
; Bitcode, from a file and from standard input; text from standard input.
; RUN: llvm-as %s -o %t.bc
; RUN: %ptxcc-opt %t.bc --ptxcc-pipeline='chip=sm_90 ptx=80' --emit=ptx | diff %t.one.ptx -
; RUN: %ptxcc-opt - --ptxcc-pipeline='chip=sm_90 ptx=80' --emit=ptx < %t.bc | diff %t.one.ptx -
; RUN: %ptxcc-opt - --ptxcc-pipeline='chip=sm_90 ptx=80' --emit=ptx < %s | diff %t.one.ptx -
; RUN: cp %s %t.txt
; RUN: %ptxcc-opt %t.txt --input-format=llvm | FileCheck %s --check-prefix=IMPORT
; Without a pipeline, --emit=ptx compiles for the module's own target
; (sm_90 and PTX 7.8, the chip's minimum: the functions name none).
; RUN: %ptxcc-opt %s --emit=ptx | %ptxas-check | FileCheck %s --check-prefix=DEFAULT
; DEFAULT: .version 7.8
; DEFAULT-NEXT: .target sm_90

target triple = "nvptx64-nvidia-cuda"

%pair = type { i32, i32 }

declare ptr @sink(ptr)
declare ptr @sink3(ptr, ptr, ptr)

; IMPORT-LABEL: llvm.func ptx_kernelcc @to_call(
; IMPORT-SAME: %{{.*}}: !llvm.ptr {llvm.align = 4 : i64, llvm.byval = !llvm.struct<"pair", (i32, i32)>, nvvm.grid_constant})
; IMPORT-SAME: attributes {nvvm.kernel}
; PTX-LABEL: .entry to_call(
; PTX-NOT: __local_depot
; PTX: cvta.param.u64
; PTX: call.uni
; PTX: ret;
define ptx_kernel void @to_call(ptr byval(%pair) align 4 "nvvm.grid_constant" %p) {
  %r = call ptr @sink(ptr %p)
  ret void
}

; Two grid constants and a local slot passed to one call: the only local
; memory is the slot.
; IMPORT-LABEL: llvm.func ptx_kernelcc @two_to_call(
; IMPORT-SAME: nvvm.grid_constant}, %{{.*}}: i32, %{{.*}}: !llvm.ptr {llvm.align = 4 : i64, llvm.byval = i32, nvvm.grid_constant})
; PTX-LABEL: .entry two_to_call(
; PTX: .local .align 4 .b8 __local_depot{{[0-9]+}}[4];
; PTX-COUNT-2: cvta.param.u64
; PTX: ret;
define ptx_kernel void @two_to_call(ptr byval(%pair) align 4 "nvvm.grid_constant" %p, i32 %a, ptr byval(i32) align 4 "nvvm.grid_constant" %q) {
  %slot = alloca i32, align 4
  store i32 %a, ptr %slot, align 4
  %r = call ptr @sink3(ptr %p, ptr %slot, ptr %q)
  ret void
}

; PTX-LABEL: .entry to_memory(
; PTX-NOT: __local_depot
; PTX: cvta.param.u64 [[ADDRESS:%rd[0-9]+]],
; PTX: st.global.b64 [%rd{{[0-9]+}}], [[ADDRESS]];
define ptx_kernel void @to_memory(ptr byval(%pair) align 4 "nvvm.grid_constant" %p, ptr %out) {
  store ptr %p, ptr %out, align 8
  ret void
}

; PTX-LABEL: .entry to_asm(
; PTX-NOT: __local_depot
; PTX: cvta.param.u64
; PTX: // begin inline asm
define ptx_kernel void @to_asm(ptr byval(%pair) align 4 "nvvm.grid_constant" %p, ptr %out) {
  %second = getelementptr inbounds %pair, ptr %p, i32 0, i32 1
  %sum = call i64 asm "add.s64 $0, $1, $2;", "=l,l,l"(ptr %p, ptr %second)
  store i64 %sum, ptr %out, align 8
  ret void
}

; Not a grid constant: the copy stays (llc makes the same one).
; IMPORT-LABEL: llvm.func ptx_kernelcc @plain(
; IMPORT-NOT: nvvm.grid_constant
; IMPORT-SAME: {
; PTX-LABEL: .entry plain(
; PTX: __local_depot
define ptx_kernel void @plain(ptr byval(%pair) align 4 %p) {
  %r = call ptr @sink(ptr %p)
  ret void
}

; Marked the old way: a kernel and a grid constant in !nvvm.annotations.
; IMPORT-LABEL: llvm.func ptx_kernelcc @annotated(
; IMPORT-SAME: nvvm.grid_constant}
; IMPORT-SAME: attributes {nvvm.kernel}
; PTX-LABEL: .entry annotated(
; PTX-NOT: __local_depot
; PTX: cvta.param.u64
; PTX: ret;
define void @annotated(ptr byval(%pair) align 4 %p, ptr %out) {
  store ptr %p, ptr %out, align 8
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @annotated, !"kernel", i32 1}
!1 = !{ptr @annotated, !"grid_constant", !2}
!2 = !{i32 1}
