target triple = "nvptx64-nvidia-cuda"
define i32 @f(i32 %a) {
  ret i32 %a
}
