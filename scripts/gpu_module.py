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
