// promote-local-arrays promotes only arrays that free stack, judged by
// ptxas (issue 41). Four 32-byte arrays live throughout and four
// temporaries live one after the other, each filled from two of the first
// four and read back in a loop; the temporaries come first. With a budget
// of three arrays (max-promoted-registers=24), the previous rule promoted
// three temporaries, whose place in llc's frame the fourth kept: llc's
// 160-byte frame, and 32 registers where llc alone takes 15 (the float16
// spatial-matrix kernels of NVIDIA Warp, 127 registers for llc's 95 and
// the same frame, in small). Now the temporaries stay, and three of the
// arrays live throughout are promoted instead: 64 bytes of stack.
// RUN: %ptxcc-opt %s --ptxcc-pipeline='max-promoted-registers=24 promote-remarks=true' -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxcc-opt %s --ptxcc-pipeline='max-promoted-registers=24' | %to-llvmir | %llc-sm90 -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -c -v %t.ptx -o %t.o 2>&1 | FileCheck %s --check-prefix=SASS %}
// RUN: %to-llvmir %s | %llc-sm90 -o %t.llc.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -c -v %t.llc.ptx -o %t.llc.o 2>&1 | FileCheck %s --check-prefix=SASS-LLC %}

// The temporaries (%8 to %11), then the arrays live throughout.
// CHECK-COUNT-4: remark: kept in local memory: its stack is shared with arrays kept in local memory: promoting it frees none
// CHECK-COUNT-3: remark: promoted to registers: 32 bytes; loops unrolled with 8, 8, 8, 8, 8 iterations
// CHECK: remark: kept in local memory: its 32 bytes exceed the 0 bytes of registers left (max-promoted-registers)

// SASS-LABEL: Function properties for four_and_four
// SASS-NEXT: 64 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SASS-NEXT: Used 32 registers
// SASS-LLC-LABEL: Function properties for four_and_four
// SASS-LLC-NEXT: 160 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SASS-LLC-NEXT: Used 15 registers

llvm.func ptx_kernelcc @four_and_four(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr<1>, %arg2: i32) {
  %0 = llvm.mlir.constant(1 : i32) : i32
  %1 = llvm.mlir.constant(0 : i32) : i32
  %2 = llvm.mlir.constant(8 : i32) : i32
  %3 = llvm.mlir.constant(16 : i32) : i32
  %4 = llvm.mlir.constant(24 : i32) : i32
  %5 = llvm.mlir.constant(7 : i32) : i32
  %6 = llvm.mlir.constant(0.000000e+00 : f32) : f32
  %7 = llvm.mlir.constant(100 : i64) : i64
  %8 = llvm.alloca %0 x !llvm.array<8 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %9 = llvm.alloca %0 x !llvm.array<8 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %10 = llvm.alloca %0 x !llvm.array<8 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %11 = llvm.alloca %0 x !llvm.array<8 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %12 = llvm.alloca %0 x !llvm.array<8 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %13 = llvm.alloca %0 x !llvm.array<8 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %14 = llvm.alloca %0 x !llvm.array<8 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %15 = llvm.alloca %0 x !llvm.array<8 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.intr.lifetime.start %12 : !llvm.ptr
  llvm.intr.lifetime.start %13 : !llvm.ptr
  llvm.intr.lifetime.start %14 : !llvm.ptr
  llvm.intr.lifetime.start %15 : !llvm.ptr
  llvm.br ^bb1(%1 : i32)
^bb1(%16: i32):  // 2 preds: ^bb0, ^bb1
  %17 = llvm.add %16, %1 : i32
  %18 = llvm.zext %17 : i32 to i64
  %19 = llvm.getelementptr %arg0[%18] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %20 = llvm.load %19 {alignment = 4 : i64} : !llvm.ptr<1> -> f32
  %21 = llvm.getelementptr %12[%1, %16] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  llvm.store %20, %21 {alignment = 4 : i64} : f32, !llvm.ptr
  %22 = llvm.add %16, %2 : i32
  %23 = llvm.zext %22 : i32 to i64
  %24 = llvm.getelementptr %arg0[%23] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %25 = llvm.load %24 {alignment = 4 : i64} : !llvm.ptr<1> -> f32
  %26 = llvm.getelementptr %13[%1, %16] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  llvm.store %25, %26 {alignment = 4 : i64} : f32, !llvm.ptr
  %27 = llvm.add %16, %3 : i32
  %28 = llvm.zext %27 : i32 to i64
  %29 = llvm.getelementptr %arg0[%28] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %30 = llvm.load %29 {alignment = 4 : i64} : !llvm.ptr<1> -> f32
  %31 = llvm.getelementptr %14[%1, %16] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  llvm.store %30, %31 {alignment = 4 : i64} : f32, !llvm.ptr
  %32 = llvm.add %16, %4 : i32
  %33 = llvm.zext %32 : i32 to i64
  %34 = llvm.getelementptr %arg0[%33] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %35 = llvm.load %34 {alignment = 4 : i64} : !llvm.ptr<1> -> f32
  %36 = llvm.getelementptr %15[%1, %16] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  llvm.store %35, %36 {alignment = 4 : i64} : f32, !llvm.ptr
  %37 = llvm.add %16, %0 : i32
  %38 = llvm.icmp "eq" %37, %2 : i32
  llvm.cond_br %38, ^bb2, ^bb1(%37 : i32)
^bb2:  // pred: ^bb1
  llvm.intr.lifetime.start %8 : !llvm.ptr
  llvm.br ^bb3(%1 : i32)
^bb3(%39: i32):  // 2 preds: ^bb2, ^bb3
  %40 = llvm.getelementptr %12[%1, %39] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %41 = llvm.load %40 {alignment = 4 : i64} : !llvm.ptr -> f32
  %42 = llvm.getelementptr %13[%1, %39] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %43 = llvm.load %42 {alignment = 4 : i64} : !llvm.ptr -> f32
  %44 = llvm.fmul %41, %43 : f32
  %45 = llvm.getelementptr %8[%1, %39] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  llvm.store %44, %45 {alignment = 4 : i64} : f32, !llvm.ptr
  %46 = llvm.add %39, %0 : i32
  %47 = llvm.icmp "eq" %46, %2 : i32
  llvm.cond_br %47, ^bb4(%1 : i32), ^bb3(%46 : i32)
^bb4(%48: i32):  // 2 preds: ^bb3, ^bb4
  %49 = llvm.getelementptr %8[%1, %48] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %50 = llvm.load %49 {alignment = 4 : i64} : !llvm.ptr -> f32
  %51 = llvm.sub %5, %48 : i32
  %52 = llvm.getelementptr %8[%1, %51] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %53 = llvm.load %52 {alignment = 4 : i64} : !llvm.ptr -> f32
  %54 = llvm.fadd %50, %53 : f32
  %55 = llvm.add %48, %1 : i32
  %56 = llvm.zext %55 : i32 to i64
  %57 = llvm.getelementptr %arg1[%56] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  llvm.store %54, %57 {alignment = 4 : i64} : f32, !llvm.ptr<1>
  %58 = llvm.getelementptr %14[%1, %48] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  llvm.store %54, %58 {alignment = 4 : i64} : f32, !llvm.ptr
  %59 = llvm.add %48, %0 : i32
  %60 = llvm.icmp "eq" %59, %2 : i32
  llvm.cond_br %60, ^bb5, ^bb4(%59 : i32)
^bb5:  // pred: ^bb4
  llvm.intr.lifetime.end %8 : !llvm.ptr
  llvm.br ^bb6
^bb6:  // pred: ^bb5
  llvm.intr.lifetime.start %9 : !llvm.ptr
  llvm.br ^bb7(%1 : i32)
^bb7(%61: i32):  // 2 preds: ^bb6, ^bb7
  %62 = llvm.getelementptr %13[%1, %61] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %63 = llvm.load %62 {alignment = 4 : i64} : !llvm.ptr -> f32
  %64 = llvm.getelementptr %14[%1, %61] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %65 = llvm.load %64 {alignment = 4 : i64} : !llvm.ptr -> f32
  %66 = llvm.fmul %63, %65 : f32
  %67 = llvm.getelementptr %9[%1, %61] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  llvm.store %66, %67 {alignment = 4 : i64} : f32, !llvm.ptr
  %68 = llvm.add %61, %0 : i32
  %69 = llvm.icmp "eq" %68, %2 : i32
  llvm.cond_br %69, ^bb8(%1 : i32), ^bb7(%68 : i32)
^bb8(%70: i32):  // 2 preds: ^bb7, ^bb8
  %71 = llvm.getelementptr %9[%1, %70] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %72 = llvm.load %71 {alignment = 4 : i64} : !llvm.ptr -> f32
  %73 = llvm.sub %5, %70 : i32
  %74 = llvm.getelementptr %9[%1, %73] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %75 = llvm.load %74 {alignment = 4 : i64} : !llvm.ptr -> f32
  %76 = llvm.fadd %72, %75 : f32
  %77 = llvm.add %70, %2 : i32
  %78 = llvm.zext %77 : i32 to i64
  %79 = llvm.getelementptr %arg1[%78] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  llvm.store %76, %79 {alignment = 4 : i64} : f32, !llvm.ptr<1>
  %80 = llvm.getelementptr %15[%1, %70] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  llvm.store %76, %80 {alignment = 4 : i64} : f32, !llvm.ptr
  %81 = llvm.add %70, %0 : i32
  %82 = llvm.icmp "eq" %81, %2 : i32
  llvm.cond_br %82, ^bb9, ^bb8(%81 : i32)
^bb9:  // pred: ^bb8
  llvm.intr.lifetime.end %9 : !llvm.ptr
  llvm.br ^bb10
^bb10:  // pred: ^bb9
  llvm.intr.lifetime.start %10 : !llvm.ptr
  llvm.br ^bb11(%1 : i32)
^bb11(%83: i32):  // 2 preds: ^bb10, ^bb11
  %84 = llvm.getelementptr %14[%1, %83] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %85 = llvm.load %84 {alignment = 4 : i64} : !llvm.ptr -> f32
  %86 = llvm.getelementptr %15[%1, %83] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %87 = llvm.load %86 {alignment = 4 : i64} : !llvm.ptr -> f32
  %88 = llvm.fmul %85, %87 : f32
  %89 = llvm.getelementptr %10[%1, %83] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  llvm.store %88, %89 {alignment = 4 : i64} : f32, !llvm.ptr
  %90 = llvm.add %83, %0 : i32
  %91 = llvm.icmp "eq" %90, %2 : i32
  llvm.cond_br %91, ^bb12(%1 : i32), ^bb11(%90 : i32)
^bb12(%92: i32):  // 2 preds: ^bb11, ^bb12
  %93 = llvm.getelementptr %10[%1, %92] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %94 = llvm.load %93 {alignment = 4 : i64} : !llvm.ptr -> f32
  %95 = llvm.sub %5, %92 : i32
  %96 = llvm.getelementptr %10[%1, %95] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %97 = llvm.load %96 {alignment = 4 : i64} : !llvm.ptr -> f32
  %98 = llvm.fadd %94, %97 : f32
  %99 = llvm.add %92, %3 : i32
  %100 = llvm.zext %99 : i32 to i64
  %101 = llvm.getelementptr %arg1[%100] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  llvm.store %98, %101 {alignment = 4 : i64} : f32, !llvm.ptr<1>
  %102 = llvm.getelementptr %12[%1, %92] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  llvm.store %98, %102 {alignment = 4 : i64} : f32, !llvm.ptr
  %103 = llvm.add %92, %0 : i32
  %104 = llvm.icmp "eq" %103, %2 : i32
  llvm.cond_br %104, ^bb13, ^bb12(%103 : i32)
^bb13:  // pred: ^bb12
  llvm.intr.lifetime.end %10 : !llvm.ptr
  llvm.br ^bb14
^bb14:  // pred: ^bb13
  llvm.intr.lifetime.start %11 : !llvm.ptr
  llvm.br ^bb15(%1 : i32)
^bb15(%105: i32):  // 2 preds: ^bb14, ^bb15
  %106 = llvm.getelementptr %15[%1, %105] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %107 = llvm.load %106 {alignment = 4 : i64} : !llvm.ptr -> f32
  %108 = llvm.getelementptr %12[%1, %105] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %109 = llvm.load %108 {alignment = 4 : i64} : !llvm.ptr -> f32
  %110 = llvm.fmul %107, %109 : f32
  %111 = llvm.getelementptr %11[%1, %105] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  llvm.store %110, %111 {alignment = 4 : i64} : f32, !llvm.ptr
  %112 = llvm.add %105, %0 : i32
  %113 = llvm.icmp "eq" %112, %2 : i32
  llvm.cond_br %113, ^bb16(%1 : i32), ^bb15(%112 : i32)
^bb16(%114: i32):  // 2 preds: ^bb15, ^bb16
  %115 = llvm.getelementptr %11[%1, %114] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %116 = llvm.load %115 {alignment = 4 : i64} : !llvm.ptr -> f32
  %117 = llvm.sub %5, %114 : i32
  %118 = llvm.getelementptr %11[%1, %117] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %119 = llvm.load %118 {alignment = 4 : i64} : !llvm.ptr -> f32
  %120 = llvm.fadd %116, %119 : f32
  %121 = llvm.add %114, %4 : i32
  %122 = llvm.zext %121 : i32 to i64
  %123 = llvm.getelementptr %arg1[%122] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  llvm.store %120, %123 {alignment = 4 : i64} : f32, !llvm.ptr<1>
  %124 = llvm.getelementptr %13[%1, %114] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  llvm.store %120, %124 {alignment = 4 : i64} : f32, !llvm.ptr
  %125 = llvm.add %114, %0 : i32
  %126 = llvm.icmp "eq" %125, %2 : i32
  llvm.cond_br %126, ^bb17, ^bb16(%125 : i32)
^bb17:  // pred: ^bb16
  llvm.intr.lifetime.end %11 : !llvm.ptr
  llvm.br ^bb18
^bb18:  // pred: ^bb17
  llvm.br ^bb19(%1, %6 : i32, f32)
^bb19(%127: i32, %128: f32):  // 2 preds: ^bb18, ^bb19
  %129 = llvm.getelementptr %12[%1, %127] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %130 = llvm.load %129 {alignment = 4 : i64} : !llvm.ptr -> f32
  %131 = llvm.fadd %128, %130 : f32
  %132 = llvm.getelementptr %13[%1, %127] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %133 = llvm.load %132 {alignment = 4 : i64} : !llvm.ptr -> f32
  %134 = llvm.fadd %131, %133 : f32
  %135 = llvm.getelementptr %14[%1, %127] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %136 = llvm.load %135 {alignment = 4 : i64} : !llvm.ptr -> f32
  %137 = llvm.fadd %134, %136 : f32
  %138 = llvm.getelementptr %15[%1, %127] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<8 x f32>
  %139 = llvm.load %138 {alignment = 4 : i64} : !llvm.ptr -> f32
  %140 = llvm.fadd %137, %139 : f32
  %141 = llvm.add %127, %0 : i32
  %142 = llvm.icmp "eq" %141, %2 : i32
  llvm.cond_br %142, ^bb20, ^bb19(%141, %140 : i32, f32)
^bb20:  // pred: ^bb19
  llvm.intr.lifetime.end %12 : !llvm.ptr
  llvm.intr.lifetime.end %13 : !llvm.ptr
  llvm.intr.lifetime.end %14 : !llvm.ptr
  llvm.intr.lifetime.end %15 : !llvm.ptr
  %143 = llvm.getelementptr %arg1[%7] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  llvm.store %140, %143 {alignment = 4 : i64} : f32, !llvm.ptr<1>
  llvm.return
}
