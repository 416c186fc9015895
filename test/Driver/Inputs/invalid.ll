; A use before its definition: parses, but does not verify.
define void @f() {
  %a = add i32 %b, 1
  %b = add i32 %a, 1
  ret void
}
