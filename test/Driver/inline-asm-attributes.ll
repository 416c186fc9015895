; MLIR's llvm.inline_asm keeps none of a call's attributes: imported from
; clang's CUDA device code and translated back (mlir-translate
; --mlir-to-llvmir), a `cvt.f32.f16` is a call LLVM must assume reads and
; writes any memory and may move across control flow, where clang's is
; `convergent nounwind memory(none)`, so llc no longer merged two
; conversions of one value (NVIDIA Warp's float16 kernels: 26 -> 29
; registers for the same stack). ptxcc-opt's own translation (--emit=llvm,
; --emit=ptx) puts back what the op's semantics allow: convergent always,
; nounwind where the assembly cannot unwind, memory(none) where it has no
; side effects, no memory operand and no memory clobber.
;
; RUN: %ptxcc-opt %s --emit=llvm | FileCheck %s
; RUN: %ptxcc-opt %s --ptxcc-pipeline='chip=sm_90 ptx=80' --emit=ptx | %ptxas-check | FileCheck %s --check-prefix=PTX
; The two-tool path loses them (the second conversion stays):
; RUN: %ptxcc-opt %s | %to-llvmir | FileCheck %s --check-prefix=LOST
; RUN: %ptxcc-opt %s | %to-llvmir | %llc-sm90 | FileCheck %s --check-prefix=LOST-PTX

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @twice(
; CHECK: call float asm "{ cvt.f32.f16 $0, $1;}", "=f,h"(i16 %{{.*}}) #[[PURE:[0-9]+]]
; CHECK: call float asm "{ cvt.f32.f16 $0, $1;}", "=f,h"(i16 %{{.*}}) #[[PURE]]
; PTX-LABEL: .entry twice(
; PTX: cvt.f32.f16
; PTX-NOT: cvt.f32.f16
; PTX: ret;
; LOST-LABEL: define ptx_kernel void @twice(
; LOST: call float asm "{ cvt.f32.f16 $0, $1;}", "=f,h"(i16 %{{.*}}){{$}}
; LOST-PTX-LABEL: .entry twice(
; LOST-PTX-COUNT-2: cvt.f32.f16
define ptx_kernel void @twice(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %h = load i16, ptr addrspace(1) %in, align 2
  %a = call float asm "{ cvt.f32.f16 $0, $1;}", "=f,h"(i16 %h) #0
  store float %a, ptr addrspace(1) %out, align 4
  %b = call float asm "{ cvt.f32.f16 $0, $1;}", "=f,h"(i16 %h) #0
  %q = getelementptr float, ptr addrspace(1) %out, i64 1
  store float %b, ptr addrspace(1) %q, align 4
  ret void
}

; Counter-cases: side effects, a memory operand, a memory clobber keep
; their memory effects (convergent and nounwind all the same).
; CHECK-LABEL: define ptx_kernel void @effects(
; CHECK: call void asm sideeffect "membar.gl;", ""() #[[CONVERGENT:[0-9]+]]
; CHECK: call i32 asm "ld.volatile.global.u32 $0, [$1];", "=r,l,~{memory}"(ptr addrspace(1) %{{.*}}) #[[CONVERGENT]]
; CHECK: call void asm "st.global.u32 $0, 1;", "=*m"(ptr elementtype(i32) %{{.*}}) #[[CONVERGENT]]
define ptx_kernel void @effects(ptr addrspace(1) %p, ptr %g) {
  call void asm sideeffect "membar.gl;", ""() #0
  %v = call i32 asm "ld.volatile.global.u32 $0, [$1];", "=r,l,~{memory}"(ptr addrspace(1) %p) #0
  call void asm "st.global.u32 $0, 1;", "=*m"(ptr elementtype(i32) %g) #0
  ret void
}

attributes #0 = { convergent nounwind }

; CHECK-DAG: attributes #[[PURE]] = { convergent nounwind memory(none) }
; CHECK-DAG: attributes #[[CONVERGENT]] = { convergent nounwind }
