#!/usr/bin/env python3
"""Differential execution of NVPTX kernels on the host: does ptxcc's output
compute what its input computed?

    diffexec.py compare REF.ll OUT.ll        two NVPTX LLVM IR files
    diffexec.py mlir FILE.mlir               FILE translated, against FILE
                                             through ptxcc-opt, translated
                                             (--split-input-file: each piece
                                             between `// -----` lines on its own)
    diffexec.py cuda FILE.cu...              clang's IR (at -O0 and -O2, with
                                             and without the attributes clang
                                             infers; --clang-flag adds flags
                                             such as -fno-inline) through the same

Each kernel of the two modules runs on the host (hostify.cpp makes the IR
runnable, runtime.c runs it: see README.md beside this file) on the same
pseudo-random inputs, for several seeds, each twice: with every stack and
shared variable first filled with 0x00, then with 0x01 (a byte an i1 may
hold: another one would make a bool read from uninitialised memory take
values no store can give it). Every buffer and
global variable is compared byte for byte (floats bitwise). Bytes of the
reference's result that change with the fill are unspecified and not
compared; elsewhere ptxcc's output must give the same bytes under both
fills.

Verdicts per kernel: same; differs (the first differing bytes); fault (the
output faulted, failed a space check or a barrier where the reference did
not); hang; launch ABI changed (different kernel parameters); reference
invalid (the input itself faults or hangs on these inputs: nothing to
compare); unsupported (the module uses something the host cannot run). The
exit status is 1 when any kernel differs, faults, hangs or changed its
launch ABI.
"""

import argparse
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "scripts"))
from ptx_metrics import strip_attributes  # noqa: E402

LLVM_BIN = os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin")
FILLS = (0x00, 0x01)
FAILING = ("differs", "fault", "hang", "launch ABI changed")
RUN_TIMEOUT = 20


class Unsupported(Exception):
    """The module uses something the host harness cannot run."""


class ToolError(Exception):
    """A tool of the pipeline failed."""


def tool(name):
    return os.path.join(LLVM_BIN, name)


def check_output(command, what, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise ToolError(f"{what} failed ({' '.join(command)}):\n{result.stderr[-4000:]}")
    return result.stdout


def build_tools():
    """hostify and runtime.o, built once per source version under
    target/harness (a lock keeps parallel tests from building twice)."""
    out = os.path.join(REPO, "target", "harness")
    os.makedirs(out, exist_ok=True)
    sources = [os.path.join(HERE, "hostify.cpp"), os.path.join(HERE, "runtime.c")]
    digest = hashlib.sha256(b"".join(open(s, "rb").read() for s in sources)).hexdigest()[:16]
    hostify = os.path.join(out, f"hostify-{digest}")
    runtime = os.path.join(out, f"runtime-{digest}.o")
    with open(os.path.join(out, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(hostify):
            config = tool("llvm-config")
            cxxflags = check_output([config, "--cxxflags"], "llvm-config").split()
            ldflags = check_output([config, "--ldflags"], "llvm-config").split()
            libdir = check_output([config, "--libdir"], "llvm-config").strip()
            check_output(
                [tool("clang++"), "-O1", *cxxflags, sources[0], "-o", hostify + ".tmp", *ldflags,
                 f"-lLLVM-{check_output([config, '--version'], 'llvm-config').split('.')[0]}",
                 f"-Wl,-rpath,{libdir}"],
                "building hostify",
            )
            os.rename(hostify + ".tmp", hostify)
        if not os.path.exists(runtime):
            check_output([tool("clang"), "-O1", "-c", sources[1], "-o", runtime + ".tmp"], "building runtime.c")
            os.rename(runtime + ".tmp", runtime)
    return hostify, runtime


def host_executable(ll, workdir, name):
    """Hostifies the NVPTX IR `ll` and links it with the runtime; returns the
    executable's path."""
    hostify, runtime = build_tools()
    host_ll = os.path.join(workdir, name + ".host.ll")
    result = subprocess.run([hostify, ll, host_ll], capture_output=True, text=True)
    if result.returncode == 2:
        raise Unsupported(result.stderr.strip().removeprefix("unsupported: "))
    if result.returncode != 0:
        raise ToolError(f"hostify {ll} failed:\n{result.stderr[-4000:]}")
    exe = os.path.join(workdir, name + ".exe")
    result = subprocess.run(
        [tool("clang"), "-O0", "-w", host_ll, runtime, "-o", exe, "-lm"], capture_output=True, text=True
    )
    if result.returncode != 0:
        missing = re.findall(r"undefined reference to `(__nvvm_\w+)'", result.stderr)
        if missing:
            raise Unsupported("no host version of " + ", ".join(sorted(set(m.replace("__nvvm_", "llvm.nvvm.") for m in missing))))
        raise ToolError(f"compiling the host module of {ll} failed:\n{result.stderr[-4000:]}")
    return exe


def kernels(exe):
    """[(name, parameter description)] of a host executable."""
    lines = check_output([exe, "list"], "listing kernels").splitlines()
    return [(line.split("\t")[0], "\t".join(line.split("\t")[1:])) for line in lines]


def launch_abi(description):
    """A kernel's parameters as the launch sees them (a parameter becoming a
    grid constant does not change the launch)."""
    return re.sub(r"(byval \d+ \d+) [01]", r"\1", description)


@dataclass
class Run:
    status: int
    dumps: dict = field(default_factory=dict)
    message: str = ""


def run(exe, kernel, seed, fill, grid, block):
    try:
        result = subprocess.run(
            [exe, "run", str(kernel), str(seed), str(fill), str(grid), str(block)],
            capture_output=True, text=True, timeout=RUN_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        return Run(-1, message=f"no result after {RUN_TIMEOUT} s")
    if result.returncode != 0:
        message = result.stderr.strip() or f"exit status {result.returncode}"
        return Run(result.returncode, message=message.splitlines()[-1])
    dumps = {}
    for line in result.stdout.splitlines():
        label, _, data = line.rpartition(" ")
        dumps[label] = bytes.fromhex(data)
    return Run(0, dumps)


@dataclass
class Verdict:
    kernel: str
    kind: str
    detail: str = ""

    def __str__(self):
        return f"{self.kernel}: {self.kind}" + (f": {self.detail}" if self.detail else "")


def first_difference(reference, output):
    """The first byte of `reference`'s runs (one per fill) that `output`'s
    runs do not reproduce, outside the bytes the fill decides."""
    for label in reference[0].dumps:
        ref = [r.dumps[label] for r in reference]
        out = [o.dumps.get(label) for o in output]
        if any(o is None or len(o) != len(ref[0]) for o in out):
            return f"{label} is missing or has another size"
        if all(o == r for o, r in zip(out, ref)):
            continue
        for index in range(len(ref[0])):
            unspecified = any(r[index] != ref[0][index] for r in ref)
            if unspecified:
                continue
            if any(o[index] != ref[0][index] for o in out):
                got = "/".join(f"{o[index]:#04x}" for o in out)
                return f"{label}, byte {index}: expected {ref[0][index]:#04x}, got {got}"
    extra = set(output[0].dumps) - set(reference[0].dumps)
    if extra:
        return f"{sorted(extra)[0]} exists only in the output"
    return None


def compare_kernel(name, ref_index, out_index, ref_exe, out_exe, seeds, grid, block):
    """The verdict on one kernel (at `ref_index` in the reference, at
    `out_index` in the output)."""
    for seed in seeds:
        reference = [run(ref_exe, ref_index, seed, fill, grid, block) for fill in FILLS]
        failed = next((r for r in reference if r.status != 0), None)
        if failed:
            return Verdict(name, "reference invalid", f"seed {seed}: {failed.message}")
        output = [run(out_exe, out_index, seed, fill, grid, block) for fill in FILLS]
        failed = next((o for o in output if o.status != 0), None)
        if failed:
            return Verdict(name, "hang" if failed.status == -1 else "fault", f"seed {seed}: {failed.message}")
        difference = first_difference(reference, output)
        if difference:
            return Verdict(name, "differs", f"seed {seed}: {difference}")
    return Verdict(name, "same")


def compare_modules(ref_ll, out_ll, workdir, seeds=(1, 2, 3), grid=2, block=8):
    """Runs every kernel of the two NVPTX IR files; returns the verdicts."""
    try:
        ref_exe = host_executable(ref_ll, workdir, "reference")
        out_exe = host_executable(out_ll, workdir, "output")
    except Unsupported as why:
        return [Verdict("(module)", "unsupported", str(why))]
    ref_kernels, out_kernels = kernels(ref_exe), kernels(out_exe)
    out_by_name = {name: (index, description) for index, (name, description) in enumerate(out_kernels)}
    verdicts = []
    for index, (name, description) in enumerate(ref_kernels):
        if name not in out_by_name:
            verdicts.append(Verdict(name, "launch ABI changed", "the kernel is gone"))
            continue
        out_index, out_description = out_by_name[name]
        if launch_abi(description) != launch_abi(out_description):
            verdicts.append(Verdict(name, "launch ABI changed", f"{description!r} -> {out_description!r}"))
            continue
        verdicts.append(compare_kernel(name, index, out_index, ref_exe, out_exe, seeds, grid, block))
    return verdicts


def through_ptxcc(mlir, workdir, ptxcc_opt, pipeline):
    """(reference IR, output IR) for an LLVM-dialect MLIR file."""
    ref_ll = os.path.join(workdir, "reference.ll")
    out_mlir = os.path.join(workdir, "output.mlir")
    out_ll = os.path.join(workdir, "output.ll")
    check_output([tool("mlir-translate"), "--mlir-to-llvmir", mlir, "-o", ref_ll], "mlir-translate (input)")
    check_output([ptxcc_opt, mlir, *pipeline, "-o", out_mlir], "ptxcc-opt")
    check_output([tool("mlir-translate"), "--mlir-to-llvmir", out_mlir, "-o", out_ll], "mlir-translate (output)")
    return ref_ll, out_ll


def cuda_to_mlir(cu, workdir, opt, strip, ptxcc_opt, chip="sm_90", ptx=80, clang_flags=()):
    """clang's device IR for `cu` at -O`opt` (plus `clang_flags`), imported
    into MLIR by ptxcc-opt (which keeps __grid_constant__, unlike
    mlir-translate --import-llvm)."""
    ll = os.path.join(workdir, "clang.ll")
    check_output(
        [tool("clang"), "-x", "cuda", "--cuda-device-only", f"--cuda-gpu-arch={chip}", "-nocudainc", "-nocudalib",
         "-Xclang", "-target-feature", "-Xclang", f"+ptx{ptx}", f"-O{opt}", "-Xclang", "-disable-O0-optnone",
         *clang_flags, "-S", "-emit-llvm", cu, "-o", ll],
        "clang",
    )
    if strip:
        with open(ll) as f:
            text = strip_attributes(f.read())
        with open(ll, "w") as f:
            f.write(text)
    mlir = os.path.join(workdir, "clang.mlir")
    check_output([ptxcc_opt, ll, "-o", mlir], "ptxcc-opt (import)")
    return mlir


def pieces(files, base):
    """The pieces of `files` between `// -----` lines, each written to a
    file of its own under `base` (named FILE:N)."""
    found = []
    for path in files:
        with open(path) as f:
            texts = re.split(r"^// -----.*$", f.read(), flags=re.MULTILINE)
        for index, text in enumerate(texts):
            stem = re.sub(r"\W", "_", os.path.basename(path))
            piece = os.path.join(base, f"{stem}-{index}.mlir")
            with open(piece, "w") as f:
                f.write(text)
            found.append(piece)
    return found


def report(title, verdicts, counts):
    """Prints the verdicts, counts them by kind; returns the failing ones."""
    for verdict in verdicts:
        print(f"{title}: {verdict}")
        counts[verdict.kind] = counts.get(verdict.kind, 0) + 1
    return [v for v in verdicts if v.kind in FAILING]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["compare", "mlir", "cuda"])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--ptxcc-opt", default=os.path.join(REPO, "target", "debug", "ptxcc-opt"))
    parser.add_argument("--pipeline", action="append", help="ptxcc-opt arguments (default --ptxcc-pipeline)")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--grid", type=int, default=2)
    parser.add_argument("--block", type=int, default=8)
    parser.add_argument("--opt", action="append", help="clang -O levels for cuda mode (default 0 and 2)")
    parser.add_argument("--clang-flag", action="append", default=[],
                        help="one more clang flag for cuda mode (-fno-inline, say); repeatable")
    parser.add_argument("--keep", help="keep the intermediate files in this directory")
    parser.add_argument("--split-input-file", action="store_true",
                        help="mlir mode: run each piece between `// -----` lines on its own")
    args = parser.parse_args()
    pipeline = args.pipeline or ["--ptxcc-pipeline"]
    seeds = range(1, args.seeds + 1)
    failing = []
    counts = {}
    base = args.keep or tempfile.mkdtemp(prefix="diffexec.")
    try:
        if args.mode == "compare":
            if len(args.files) != 2:
                parser.error("compare takes REF.ll OUT.ll")
            verdicts = compare_modules(*args.files, base, seeds, args.grid, args.block)
            failing += report("compare", verdicts, counts)
        for path in pieces(args.files, base) if args.split_input_file else (
                args.files if args.mode != "compare" else []):
            variants = [(None, False)] if args.mode == "mlir" else [
                (opt, strip) for opt in (args.opt or ["0", "2"]) for strip in (False, True)]
            for opt, strip in variants:
                title = path if opt is None else f"{path} -O{opt}{' stripped' if strip else ''}"
                workdir = os.path.join(base, re.sub(r"\W", "_", title))
                os.makedirs(workdir, exist_ok=True)
                try:
                    mlir = path if opt is None else cuda_to_mlir(
                        path, workdir, opt, strip, args.ptxcc_opt, clang_flags=args.clang_flag)
                    ref_ll, out_ll = through_ptxcc(mlir, workdir, args.ptxcc_opt, pipeline)
                    verdicts = compare_modules(ref_ll, out_ll, workdir, seeds, args.grid, args.block)
                except ToolError as error:
                    verdicts = [Verdict("(module)", "fault", str(error))]
                failing += report(title, verdicts, counts)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(counts.items()))
    print(f"diffexec: {sum(counts.values())} kernels ({kinds}); {len(failing)} failing")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
