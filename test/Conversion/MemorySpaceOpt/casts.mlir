// memory-space-opt: cast pairs fold, and param-space pointers from
// lower-struct-args are seeds only with opt-byval.
// RUN: %ptxcc-opt %s --split-input-file --memory-space-opt | FileCheck %s
// RUN: %ptxcc-opt %s --split-input-file --memory-space-opt=opt-byval=false | FileCheck %s --check-prefix=OFF

// generic -> N of a pointer known to be in N is the original pointer.
// CHECK-LABEL: llvm.func @generic_to_specific(
// CHECK-SAME: %[[S:[^:]*]]: !llvm.ptr<3>)
// CHECK-NEXT: llvm.call @shared_user(%[[S]]) : (!llvm.ptr<3>) -> ()
// CHECK-NEXT: llvm.return
llvm.func @generic_to_specific(%s: !llvm.ptr<3>) {
  %g = llvm.addrspacecast %s : !llvm.ptr<3> to !llvm.ptr
  %back = llvm.addrspacecast %g : !llvm.ptr to !llvm.ptr<3>
  llvm.call @shared_user(%back) : (!llvm.ptr<3>) -> ()
  llvm.return
}
llvm.func @shared_user(!llvm.ptr<3>)

// -----

// generic -> global -> generic is the original pointer for other users;
// an access through it keeps the global view.
// CHECK-LABEL: llvm.func @round_trip(
// CHECK-SAME: %[[P:[^:]*]]: !llvm.ptr)
// CHECK-NEXT: %[[G:.*]] = llvm.addrspacecast %[[P]] : !llvm.ptr to !llvm.ptr<1>
// CHECK-NEXT: %[[V:.*]] = llvm.load %[[G]] : !llvm.ptr<1> -> i32
// CHECK-NEXT: llvm.call @generic_user(%[[P]]) : (!llvm.ptr) -> ()
// CHECK-NEXT: llvm.return %[[V]]
llvm.func @round_trip(%p: !llvm.ptr) -> i32 {
  %g = llvm.addrspacecast %p : !llvm.ptr to !llvm.ptr<1>
  %back = llvm.addrspacecast %g : !llvm.ptr<1> to !llvm.ptr
  %v = llvm.load %back : !llvm.ptr -> i32
  llvm.call @generic_user(%back) : (!llvm.ptr) -> ()
  llvm.return %v : i32
}
llvm.func @generic_user(!llvm.ptr)

// -----

// A kernel's byval parameter seen through ptxcc.param_to_generic (what
// lower-struct-args makes for a select of two parameters): with opt-byval
// the select is rebuilt in param space, the load becomes ld.param and the
// casts go; without it the generic pointers stay (seed 002).
// CHECK-LABEL: llvm.func ptx_kernelcc @param_select(
// CHECK: %[[PS:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<101>
// CHECK: %[[PT:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<101>
// CHECK-NOT: ptxcc.param_to_generic
// CHECK: %[[SEL:.*]] = llvm.select %{{.*}}, %[[PS]], %[[PT]] : i1, !llvm.ptr<101>
// CHECK-NEXT: llvm.load %[[SEL]] : !llvm.ptr<101> -> i32
// OFF-LABEL: llvm.func ptx_kernelcc @param_select(
// OFF-COUNT-2: ptxcc.param_to_generic
// OFF: %[[SEL:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, !llvm.ptr
// OFF-NEXT: llvm.load %[[SEL]] : !llvm.ptr -> i32
llvm.func ptx_kernelcc @param_select(%s: !llvm.ptr {llvm.byval = i32, llvm.align = 4 : i64}, %t: !llvm.ptr {llvm.byval = i32, llvm.align = 4 : i64}, %c: i1, %out: !llvm.ptr) {
  %ps = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  %gs = "ptxcc.param_to_generic"(%ps) : (!llvm.ptr<101>) -> !llvm.ptr
  %pt = llvm.addrspacecast %t : !llvm.ptr to !llvm.ptr<101>
  %gt = "ptxcc.param_to_generic"(%pt) : (!llvm.ptr<101>) -> !llvm.ptr
  %sel = llvm.select %c, %gs, %gt : i1, !llvm.ptr
  %v = llvm.load %sel : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// A write through a param-space pointer never moves to param space (PTX
// kernel parameters are read-only); nor does a load in a device function.
// CHECK-LABEL: llvm.func @device_param_view(
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> i32
llvm.func @device_param_view(%p: !llvm.ptr<101>) -> i32 {
  %g = llvm.addrspacecast %p : !llvm.ptr<101> to !llvm.ptr
  %v = llvm.load %g : !llvm.ptr -> i32
  llvm.return %v : i32
}
