; Annotations on a global variable (clang's textures and surfaces): not
; properties LLVM's upgrade turns into attributes, so they are fine.
target triple = "nvptx64-nvidia-cuda"
@tex = global i64 0
define ptx_kernel void @k(ptr %o) {
  ret void
}
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @tex, !"texture", i32 1}
!1 = !{ptr @tex, !"managed", !{i32 1, i32 2}}
