; A kernel with an empty byval struct, without ptxcc: llc declares its
; parameter `[0]`, which ptxas rejects (escapes.mlir).
target triple = "nvptx64-nvidia-cuda"

declare void @unknown_empty(ptr)

define ptx_kernel void @empty_struct(ptr byval({}) %s) {
  call void @unknown_empty(ptr %s)
  ret void
}
