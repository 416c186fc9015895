; llc declares a function ahead of its definition only for callers it has
; printed, and never counts one marked nvptx-libcall-callee as printed:
; @wrapper's call of @clone, defined after it, has no declaration, which
; ptxas rejects ("Unknown symbol"). ptxcc puts clones before their wrappers.
target triple = "nvptx64-nvidia-cuda"

define internal i32 @wrapper(i32 %x) #0 {
  %r = call i32 @clone(i32 %x)
  ret i32 %r
}

define internal i32 @clone(i32 %x) noinline {
  %r = add i32 %x, 1
  ret i32 %r
}

define ptx_kernel void @k(ptr %out) {
  %f = ptrtoint ptr @wrapper to i64
  %t = trunc i64 %f to i32
  store i32 %t, ptr %out
  ret void
}

attributes #0 = { noinline "nvptx-libcall-callee"="true" }
