; A parse error on line 3.
define void @f() {
  ret i32 0
}
