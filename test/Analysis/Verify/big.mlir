// The param-space rule against the target: 8192 bytes do not fit PTX 7.8's
// 4096 (invalid.mlir) but fit PTX 8.1's 32764 on sm_70 and newer.
// RUN: %ptxcc-opt %s --ptxcc-verify=ptx=81 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %ptxcc-opt %s --ptxcc-verify=chip=sm_60 2>&1 | FileCheck %s --check-prefix=SM60
// CHECK-LABEL: llvm.func ptx_kernelcc @big(
// SM60: error: kernel 'big' needs 8192 bytes of .param space, more than the 4096 bytes sm_60, PTX 5.0 allows (PTX 8.1 on sm_70 or newer allows 32764)
llvm.func ptx_kernelcc @big(%s: !llvm.ptr {llvm.byval = !llvm.array<2048 x f32>, llvm.align = 4 : i64}) {
  llvm.return
}
