#!/usr/bin/env python3
"""Snapshot ptxcc-opt's output on a corpus, to prove a refactor changes none of it.

Runs one ptxcc-opt binary over every input of the corpus under every
configuration and writes what it printed (standard output, standard error
and the exit status) to one file per run:

  * every `.mlir` and `.ll` file under test/ (with --split-input-file for
    MLIR);
  * every test/e2e/*.cu, compiled by clang to LLVM IR at -O2 and at -O0
    (flows a and b of compare.py);
  * the fuzz generator's modules for seeds 1..--fuzz-seeds;
  * the benchmark module (bench/generate.py) of --bench-functions functions.

Configurations: the whole pipeline and its main switches, and each pass
alone (the fuzzer's list), plus the verifier and the ABI report.

  scripts/snapshot.py --ptxcc-opt target/release/ptxcc-opt --out /tmp/before
  ... change the code, rebuild ...
  scripts/snapshot.py --ptxcc-opt target/release/ptxcc-opt --out /tmp/after --compare /tmp/before

With --compare, exits 1 naming every run whose output differs (or that one
side lacks). The inputs are rebuilt in each --out directory, so both sides
see the same corpus only when clang and the generators are unchanged.
"""

import argparse
import concurrent.futures
import glob
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM_BIN = os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin")
CLANG_FLAGS = [
    "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90", "-nocudainc", "-nocudalib",
    "-Xclang", "-target-feature", "-Xclang", "+ptx80", "-S", "-emit-llvm",
]
CONFIGS = {
    "pipeline": ["--ptxcc-pipeline"],
    "opt-byval-false": ["--ptxcc-pipeline=opt-byval=false"],
    "llvm-opt-after": ["--ptxcc-pipeline=llvm-opt-after=true"],
    "whole-program": ["--ptxcc-pipeline=whole-program=true"],
    "promote-local-false": ["--ptxcc-pipeline=promote-local=false"],
    "lower-struct-args": ["--lower-struct-args"],
    "promote-local-arrays": ["--promote-local-arrays=promote-remarks=true"],
    "lower-alloca": ["--lower-alloca"],
    "memory-space-opt": ["--memory-space-opt"],
    "convert-ptxcc-to-llvm": ["--convert-ptxcc-to-llvm"],
    "verify": ["--ptxcc-verify"],
    "abi-report": ["--ptxcc-abi-report"],
}
TIMEOUT = 300


def inputs(out, fuzz_seeds, bench_functions):
    """The corpus: (name, path, is MLIR) of every input, built under `out`."""
    found = []
    for path in sorted(glob.glob(os.path.join(REPO, "test", "**", "*.mlir"), recursive=True)
                       + glob.glob(os.path.join(REPO, "test", "**", "*.ll"), recursive=True)):
        relative = os.path.relpath(path, REPO)
        if "/Output/" in relative:
            continue
        found.append((relative.replace("/", "__"), path, path.endswith(".mlir")))
    corpus = os.path.join(out, "inputs")
    os.makedirs(corpus, exist_ok=True)
    for cu in sorted(glob.glob(os.path.join(REPO, "test", "e2e", "*.cu"))):
        for level in ("-O2", "-O0"):
            ll = os.path.join(corpus, f"{os.path.basename(cu)}{level}.ll")
            subprocess.run([os.path.join(LLVM_BIN, "clang"), *CLANG_FLAGS, level, cu, "-o", ll], check=True,
                           capture_output=True)
            found.append((os.path.basename(ll), ll, False))
    for seed in range(1, fuzz_seeds + 1):
        mlir = os.path.join(corpus, f"fuzz-{seed}.mlir")
        with open(mlir, "w") as f:
            subprocess.run([sys.executable, os.path.join(REPO, "test", "fuzz", "generate.py"), str(seed)], stdout=f,
                           check=True)
        found.append((os.path.basename(mlir), mlir, True))
    if bench_functions:
        mlir = os.path.join(corpus, f"bench-{bench_functions}.mlir")
        subprocess.run([sys.executable, os.path.join(REPO, "bench", "generate.py"), "--functions",
                        str(bench_functions), "-o", mlir], check=True, capture_output=True)
        found.append((os.path.basename(mlir), mlir, True))
    return found


def run(job):
    ptxcc_opt, name, path, is_mlir, config, target = job
    # Run beside the input and name it by its file name alone: diagnostics
    # carry the path, which differs between --out directories.
    command = [os.path.abspath(ptxcc_opt), os.path.basename(path), *CONFIGS[config]]
    if is_mlir:
        command.append("--split-input-file")
    try:
        result = subprocess.run(command, capture_output=True, timeout=TIMEOUT, cwd=os.path.dirname(path))
        text = result.stdout + b"\n--- stderr\n" + result.stderr + f"\n--- exit {result.returncode}\n".encode()
    except subprocess.TimeoutExpired:
        text = b"--- timeout\n"
    with open(target, "wb") as f:
        f.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ptxcc-opt", default=os.path.join(REPO, "target", "release", "ptxcc-opt"))
    parser.add_argument("--out", required=True, help="directory for the inputs and the outputs")
    parser.add_argument("--compare", help="a directory an earlier run wrote: exit 1 on any difference")
    parser.add_argument("--fuzz-seeds", type=int, default=60)
    parser.add_argument("--bench-functions", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    args = parser.parse_args()
    outputs = os.path.join(args.out, "outputs")
    os.makedirs(outputs, exist_ok=True)
    jobs = [(args.ptxcc_opt, name, path, is_mlir, config, os.path.join(outputs, f"{name}.{config}.txt"))
            for name, path, is_mlir in inputs(args.out, args.fuzz_seeds, args.bench_functions)
            for config in CONFIGS]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(run, jobs))
    print(f"{len(jobs)} runs written to {outputs}")
    if not args.compare:
        return 0
    before = os.path.join(args.compare, "outputs")
    names = sorted(set(os.listdir(before)) | set(os.listdir(outputs)))
    differ = []
    for name in names:
        try:
            with open(os.path.join(before, name), "rb") as a, open(os.path.join(outputs, name), "rb") as b:
                if a.read() != b.read():
                    differ.append(name)
        except FileNotFoundError:
            differ.append(f"{name} (on one side only)")
    for name in differ:
        print(f"differs: {name}")
    print(f"{len(names) - len(differ)} of {len(names)} runs identical")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
