#!/usr/bin/env python3
"""Runs ptxcc-opt under valgrind's memcheck on the test suite's inputs and
fails on any memory error (an invalid read or write, a double free, a use
of uninitialised memory that decides a branch).

    memcheck.py --ptxcc-opt PATH [--jobs N] [--fuzz-count N] [--keep DIR]

Use the release build: undefined behaviour that debug builds hide shows
there, and it is the build users run. valgrind starts a 60 MB binary in
about 7 s, so inputs are batched: pieces of one `--split-input-file` file
wherever the input is MLIR. Every run has `--verify-each` (MLIR's verifier
after every pass, on the driver's thread: the output verifier thread's
1 GB stack, only reserved natively, costs valgrind 2 s a piece to paint).
The runs:

- the lit suite's MLIR inputs (test/Conversion, test/Pipeline,
  test/Analysis, test/Dialect/ops.mlir), one file, through the pipeline
  (three option sets), `lower-struct-args` with `flatten-kernel-args`, the
  ABI report and `ptxcc-verify`;
- every e2e CUDA file (test/e2e/*.cu) at -O0 and -O2, with and without
  -fno-inline: clang's LLVM IR straight into ptxcc-opt (its import and the
  pipeline) at -O2, and all four variants imported, as one file, through the
  pipeline and the pipeline with `whole-program`; the MLIR GPU programs
  (test/e2e/gpu) after upstream's GPU lowering;
- a fixed set of generated modules (test/fuzz/generate.py, seeds 1 to
  --fuzz-count), one file, through the pipeline (three option sets) and
  each pass alone;
- one module large enough for lower-struct-args to change IR on the thread
  pool (the benchmark's `external` shape at 3000 functions), through the
  pipeline and the pipeline with `whole-program`.

The last line is a summary; the exit status is 1 when any run reported a
memory error or crashed (ptxcc-opt's own exit status 1, an input it
refuses, is fine).
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "scripts"))
sys.path.insert(0, os.path.join(REPO, "test", "fuzz"))
sys.path.insert(0, os.path.join(REPO, "test", "harness"))
import generate  # noqa: E402
from diffexec import LLVM_BIN, check_output, cuda_to_mlir  # noqa: E402
from gpu_module import GPU_LOWER_TO_NVVM  # noqa: E402

VALGRIND_ERROR = 99
VALGRIND = ["valgrind", "--quiet", f"--error-exitcode={VALGRIND_ERROR}", "--leak-check=no",
            "--show-mismatched-frees=yes"]
# (-O level, extra clang flags), as the differential harness compiles CUDA.
CUDA_VARIANTS = [("0", []), ("2", []), ("0", ["-fno-inline"]), ("2", ["-fno-inline"])]
PIPELINES = ["--ptxcc-pipeline", "--ptxcc-pipeline=whole-program=true flatten-always=true inline-copy-threshold=16",
             "--ptxcc-pipeline=opt-byval=false"]
SPLIT = "\n// -----\n"


def joined(pieces, path):
    """Writes `pieces` (MLIR texts) as one --split-input-file input."""
    with open(path, "w") as f:
        f.write(SPLIT.join(piece.strip("\n") for piece in pieces) + "\n")
    return path


def lit_inputs(workdir):
    """The lit suite's MLIR test files, as one split file."""
    patterns = ["Conversion/**/*.mlir", "Pipeline/*.mlir", "Analysis/**/*.mlir", "Dialect/ops.mlir"]
    files = sorted({f for p in patterns for f in glob.glob(os.path.join(REPO, "test", p), recursive=True)})
    return joined([open(f).read() for f in files], os.path.join(workdir, "lit-inputs.mlir")), len(files)


def cuda_inputs(ptxcc_opt, workdir):
    """Each e2e CUDA file's LLVM IR at -O2 (to import under valgrind), and
    every variant of every file imported natively, with the GPU programs,
    as one split file."""
    direct, pieces = [], []
    for cu in sorted(glob.glob(os.path.join(REPO, "test", "e2e", "*.cu"))):
        name = os.path.splitext(os.path.basename(cu))[0]
        for opt, flags in CUDA_VARIANTS:
            variant = os.path.join(workdir, f"{name}-O{opt}{''.join(flags)}")
            os.makedirs(variant, exist_ok=True)
            # clang's IR is left as clang.ll beside the imported module.
            with open(cuda_to_mlir(cu, variant, opt, False, ptxcc_opt, clang_flags=flags)) as f:
                pieces.append(f.read())
            if opt == "2" and not flags:
                direct.append(os.path.join(variant, "clang.ll"))
    for program in sorted(glob.glob(os.path.join(REPO, "test", "e2e", "gpu", "*.mlir"))):
        pieces.append(check_output([os.path.join(LLVM_BIN, "mlir-opt"), f"--pass-pipeline={GPU_LOWER_TO_NVVM}",
                                    program], "mlir-opt (GPU lowering)"))
    return direct, joined(pieces, os.path.join(workdir, "e2e-imported.mlir")), len(pieces)


def generated_inputs(workdir, count):
    """Generated modules of seeds 1 to `count`, as one split file."""
    pieces = [generate.render(generate.make_kernels(seed)) for seed in range(1, count + 1)]
    return joined(pieces, os.path.join(workdir, "generated.mlir"))


def parallel_input(workdir):
    """A module large enough for lower-struct-args' parallel rewrites: the
    benchmark's `external` shape (kernels, and externally visible device
    functions passing structs) at 3000 functions: about 1560 kernels and 650
    device-function plans."""
    path = os.path.join(workdir, "parallel.mlir")
    check_output([sys.executable, os.path.join(REPO, "bench", "generate.py"), "--shape", "external",
                  "--functions", "3000", "-o", path], "bench/generate.py")
    return path


def memcheck(ptxcc_opt, arguments):
    """(command, valgrind's exit status, its report) of one run."""
    command = VALGRIND + [ptxcc_opt, *arguments, "--verify-each", "-o", os.devnull]
    result = subprocess.run(command, capture_output=True, text=True)
    return command, result.returncode, result.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ptxcc-opt", default=os.path.join(REPO, "target", "release", "ptxcc-opt"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--fuzz-count", type=int, default=40)
    parser.add_argument("--keep", help="keep the inputs in this directory")
    args = parser.parse_args()
    if not shutil.which("valgrind"):
        print("memcheck: valgrind is not installed (Debian's valgrind package)", file=sys.stderr)
        return 1
    start = time.monotonic()
    workdir = args.keep or tempfile.mkdtemp(prefix="memcheck.")
    os.makedirs(workdir, exist_ok=True)
    try:
        lit_file, lit_count = lit_inputs(workdir)
        direct, e2e_file, e2e_count = cuda_inputs(args.ptxcc_opt, workdir)
        generated = generated_inputs(workdir, args.fuzz_count)
        runs = [[lit_file, "--split-input-file", pipeline] for pipeline in PIPELINES]
        runs += [[lit_file, "--split-input-file", flag] for flag in
                 ["--lower-struct-args=flatten-kernel-args=true", "--ptxcc-abi-report", "--ptxcc-verify"]]
        runs += [[ll, "--ptxcc-pipeline"] for ll in direct]
        runs += [[e2e_file, "--split-input-file", pipeline] for pipeline in PIPELINES[:2]]
        runs += [[generated, "--split-input-file", pipeline] for pipeline in
                 PIPELINES + ["--ptxcc-pipeline=llvm-opt-after=true"]]
        runs += [[generated, "--split-input-file", flag] for flag in
                 ["--lower-struct-args", "--lower-alloca", "--memory-space-opt"]]
        # lower-struct-args changes IR on the thread pool from 512 functions
        # on (kernels, call sites per caller, callees, each chunk with its
        # own rewriter); the inputs above are too small for that.
        large = parallel_input(workdir)
        runs += [[large, pipeline] for pipeline in PIPELINES[:2]]
        with ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
            results = list(pool.map(lambda arguments: memcheck(args.ptxcc_opt, arguments), runs))
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    failures = 0
    for command, status, report in results:
        if status in (0, 1):
            continue
        failures += 1
        kind = "memory errors" if status == VALGRIND_ERROR else f"exit status {status}"
        print(f"memcheck: {kind}: {' '.join(command)}")
        print("\n".join(report.splitlines()[:80]))
    print(f"memcheck: {len(results)} runs under valgrind ({lit_count} lit files, {e2e_count} e2e modules, "
          f"{len(direct)} LLVM IR imports, {args.fuzz_count} generated modules, a 3000-function module) in "
          f"{time.monotonic() - start:.0f} s; {failures} with memory errors or crashes")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
