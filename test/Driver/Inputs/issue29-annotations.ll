; !nvvm.annotations whose entry names a property but no value: LLVM's
; parser upgrades the annotations and crashes on it (llc too).
target triple = "nvptx64-nvidia-cuda"
define void @k(ptr %o) {
  ret void
}
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @k, !"kernel", i32 1}
!1 = !{ptr @k, !"maxntidx"}
