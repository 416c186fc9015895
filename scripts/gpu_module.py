"""Puts an imported LLVM-dialect module (`mlir-translate --import-llvm`) in
`gpu.module @kernels [TARGET]` of a `gpu.container_module`, as an MLIR GPU
compiler would hold it.

  gpu_module.py [--target '#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">'] < in.mlir > out.mlir

The module's own attributes (data layout, triple) are dropped (the target
decides); the attribute aliases before it are kept. The default target is
`#nvvm.target<chip = "sm_90", features = "+ptx80">` (upstream's O = 2).
"""
import argparse
import sys

DEFAULT_TARGET = '#nvvm.target<chip = "sm_90", features = "+ptx80">'

# Upstream's --gpu-lower-to-nvvm-pipeline (sm_90, PTX 8.0), stopped before
# gpu-module-to-binary: MLIR GPU programs as MLIR compilers hand them to
# ptxcc, LLVM/NVVM inside gpu.module with host code beside it
# (`mlir-opt --gpu-lower-to-nvvm-pipeline --dump-pass-pipeline` lists it).
# The lit suite (test/lit.cfg.py) and test/memcheck use it.
GPU_LOWER_TO_NVVM = (
    "builtin.module(convert-nvgpu-to-nvvm,gpu-kernel-outlining,convert-vector-to-scf,convert-scf-to-cf,"
    "convert-nvvm-to-llvm,convert-func-to-llvm,expand-strided-metadata,"
    "nvvm-attach-target{chip=sm_90 features=+ptx80},lower-affine,convert-arith-to-llvm,convert-index-to-llvm,"
    "canonicalize,cse,gpu.module(convert-gpu-to-nvvm,canonicalize,cse,reconcile-unrealized-casts),gpu-to-llvm,"
    "convert-math-to-llvm,canonicalize,cse,reconcile-unrealized-casts)"
)


def in_gpu_module(imported, target=DEFAULT_TARGET):
    """The text of `imported` (a module printed by MLIR) moved into a
    `gpu.module @kernels [target]` of a `gpu.container_module`."""
    lines = imported.rstrip().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("module"))
    aliases = "\n".join(lines[:start])
    body = "\n".join(lines[start + 1 : -1])
    return (
        f"{aliases}\nmodule attributes {{gpu.container_module}} {{\n"
        f"  gpu.module @kernels [{target}] {{\n{body}\n  }}\n}}\n"
    )


def main():
    parser = argparse.ArgumentParser(description="Wrap an imported module in a gpu.module.")
    parser.add_argument("--target", default=DEFAULT_TARGET)
    args = parser.parse_args()
    sys.stdout.write(in_gpu_module(sys.stdin.read(), args.target))


if __name__ == "__main__":
    main()
