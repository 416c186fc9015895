; LLVM NVPTX cannot divide fp128 (a fatal error in llc).
target triple = "nvptx64-nvidia-cuda"
define fp128 @f(fp128 %a, fp128 %b) {
  %c = fdiv fp128 %a, %b
  ret fp128 %c
}
