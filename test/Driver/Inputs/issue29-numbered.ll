; A numbered struct type (%0: its name is empty after import) as a byval
; and an alloca type, an unnamed function (@0), an empty target-cpu.
target triple = "nvptx64-nvidia-cuda"
%0 = type { i32, float }
define internal void @0(ptr byval(%0) align 4 %s, ptr %o) {
  %v = load i32, ptr %s
  store i32 %v, ptr %o
  ret void
}
define ptx_kernel void @k(ptr byval(%0) align 4 %s, ptr %o) "target-cpu"="" {
  %a = alloca %0
  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %s, i64 8, i1 false)
  store i32 1, ptr %a
  call void @0(ptr byval(%0) %a, ptr %o)
  ret void
}
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
