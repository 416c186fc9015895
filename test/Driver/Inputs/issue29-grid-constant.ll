; "nvvm.grid_constant" on a parameter that is not byval (llc ignores it).
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr "nvvm.grid_constant" %o, ptr byval(i32) align 4 "nvvm.grid_constant" %p) {
  %v = load i32, ptr %p
  store i32 %v, ptr %o
  ret void
}
