#!/usr/bin/env python3
"""Runs generated modules (generate.py) through ptxcc-opt and judges every
outcome.

    fuzz.py --ptxcc-opt PATH --seed S --count N [--config NAME]... [--out DIR] [--jobs J]

For each module and each configuration (the pipeline; the pipeline with
opt-byval=false; the pipeline with llvm-opt-after=true; each pass alone, lower-struct-args followed by the
conversion so that its output translates), the outcome is one of:

- success: ptxcc-opt exits 0, its output holds no ptxcc op (where the
  configuration lowers them), `mlir-translate` and `llc` accept it, ptxas
  gives its PTX no error or warning it does not give llc's PTX of the
  input, every kernel runs the same as the input under the differential
  harness (test/harness), and no function costs the GPU more than llc alone
  makes it cost: by ptxas's figures (stack + spill bytes; registers as the
  warps an SM can hold, scripts/sass.py), or by PTX local bytes per kernel
  where there is no ptxas or it does not assemble the module's chip;
- refused: exit 1 with every error located (`file:line:col: error: ...`);
  the reasons are counted by their first words;
- anything else is a failure: a crash or abort, a hang, an unlocated error,
  output that does not translate or that llc or ptxas rejects, ptxcc ops
  left, a kernel that computes something else, faults or changed its launch
  ABI, a function worse than llc alone.

Each failure is reduced (kernels, then actions, then attributes are dropped
while the same failure remains) and written to --out as a reproducer.
The last line is a summary; the exit status is 1 when anything failed.
(fuzz_cuda.py does the same for generated CUDA files: clang at -O0 to -O3,
both pipelines, the differential harness.)
"""

import argparse
import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "test", "harness"))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import diffexec  # noqa: E402
import generate  # noqa: E402
import sass  # noqa: E402
from nvidia_tools import find_tools  # noqa: E402
from ptx_metrics import kernel_bodies, measure  # noqa: E402

# NVIDIA's ptxas, when scripts/nvidia_tools.py has set it up.
TOOLS = find_tools()

# name: (ptxcc-opt arguments, whether the output may keep ptxcc ops)
CONFIGS = {
    "pipeline": (["--ptxcc-pipeline"], False),
    "opt-byval=false": (["--ptxcc-pipeline=opt-byval=false"], False),
    "llvm-opt-after": (["--ptxcc-pipeline=llvm-opt-after=true"], False),
    "promote-local=false": (["--ptxcc-pipeline=promote-local=false"], False),
    "lower-struct-args": (["--lower-struct-args", "--convert-ptxcc-to-llvm"], False),
    "promote-local-arrays": (["--promote-local-arrays"], False),
    "lower-alloca": (["--lower-alloca"], False),
    "memory-space-opt": (["--memory-space-opt"], False),
    "convert-ptxcc-to-llvm": (["--convert-ptxcc-to-llvm"], False),
}
TIMEOUT = 60
LOCATED_ERROR = re.compile(r"^[^:\n]+:\d+:\d+: error: ")


def tool(name):
    return os.path.join(diffexec.LLVM_BIN, name)


def module_chip(mlir):
    """The chip the module's functions name (one per generated module), for
    llc's -mcpu: llc compiles for its command line, not for the functions'
    attributes."""
    with open(mlir) as f:
        found = re.search(r'target_cpu = "(sm_\w+)"', f.read())
    return found.group(1) if found else "sm_90"


class Compiled:
    """What llc and ptxas make of one LLVM IR module: PTX local bytes per
    kernel, and (with ptxas, for a chip it assembles) ptxas's figures per
    function and its diagnostics."""

    def __init__(self, ptx, whole=None):
        """`whole`: assemble whole-program (None: where the PTX is a whole
        program); the output is assembled in its reference's mode."""
        self.locals = {kernel: measure(body)[0] for kernel, body in kernel_bodies(ptx)}
        self.whole = sass.whole_program(ptx) if whole is None else whole
        self.assembly = None
        if TOOLS.ptxas:
            assembly = sass.assemble(ptx, TOOLS, self.whole, sass=False)
            if sass.UNKNOWN_CHIP not in assembly.log:
                self.assembly = assembly

    def diagnostics(self):
        return sass.without_clones(self.assembly.diagnostics) if self.assembly else set()


def compile_ll(ll, workdir, name, chip, whole=None):
    """`ll` through llc (and ptxas, whole-program as `whole` says):
    (Compiled, None) or (None, llc's error)."""
    ptx = os.path.join(workdir, name + ".ptx")
    command = [tool("llc"), "-mtriple=nvptx64-nvidia-cuda", f"-mcpu={chip}", "-mattr=+ptx80", ll, "-o", ptx]
    result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
    if result.returncode != 0:
        return None, result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "llc failed"
    with open(ptx) as f:
        return Compiled(f.read(), whole), None


def worse_than_llc(reference, output, chip):
    """Why `output` (Compiled) is worse than llc alone's `reference`, or
    None: by ptxas's figures where ptxas assembled both (stack + spills,
    registers as resident warps; sass.costs_more), by PTX local bytes
    otherwise. A kernel missing from the output is "kernel lost"."""
    for kernel in reference.locals:
        if kernel not in output.locals:
            return "kernel lost", kernel
    if reference.assembly and output.assembly and reference.assembly.ok and output.assembly.ok:
        before, after = reference.assembly.functions, output.assembly.functions
        for name, figures in sorted(before.items()):
            counterpart = sass.counterpart(after, name)
            if counterpart:
                why = sass.costs_more(figures, counterpart, chip)
                if why:
                    local = f"; PTX local bytes {reference.locals.get(name)} -> {output.locals.get(name)}"
                    return "worse than llc", f"{name}: {why}" + (local if name in reference.locals else "")
        return None
    for kernel, before in reference.locals.items():
        if output.locals[kernel] > before:
            return "worse than llc", f"{kernel}: {before} -> {output.locals[kernel]} local bytes"
    return None


class Reference:
    """The input module, translated, with llc's local memory and the host
    executable built once for every configuration."""

    def __init__(self, mlir, workdir):
        self.ll = os.path.join(workdir, "reference.ll")
        self.error = None
        result = subprocess.run([tool("mlir-translate"), "--mlir-to-llvmir", mlir, "-o", self.ll],
                                capture_output=True, text=True)
        if result.returncode != 0:
            self.error = "the input does not translate: " + result.stderr.strip()[-300:]
            return
        self.chip = module_chip(mlir)
        self.compiled, error = compile_ll(self.ll, workdir, "reference", self.chip)
        if error:
            self.error = "llc rejects the input: " + error


def judge(ptxcc_opt, mlir, config, workdir, reference, harness=True):
    """(outcome, detail): outcome is 'success', 'refused' or a failure kind."""
    arguments, keeps_ops = CONFIGS[config]
    out_mlir = os.path.join(workdir, "output.mlir")
    try:
        # --verify-each: IR a pass leaves invalid is caught at that pass.
        result = subprocess.run([ptxcc_opt, mlir, "--verify-each", *arguments, "-o", out_mlir], capture_output=True,
                                text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return "hang", f"ptxcc-opt ran for more than {TIMEOUT} s"
    if result.returncode < 0 or result.returncode > 1:
        return "crash", f"exit status {result.returncode}: {result.stderr.strip()[-500:]}"
    if result.returncode == 1:
        errors = [line for line in result.stderr.splitlines() if "error:" in line]
        if not errors:
            return "unlocated error", result.stderr.strip()[-500:] or "exit status 1 and no message"
        unlocated = [line for line in errors if not LOCATED_ERROR.match(line)]
        if unlocated:
            return "unlocated error", unlocated[0]
        return "refused", errors[0].split("error: ", 1)[1]
    with open(out_mlir) as f:
        output = f.read()
    if not keeps_ops and '"ptxcc.' in output:
        return "ptxcc ops left", re.search(r'"ptxcc\.\w+"', output).group(0)
    out_ll = os.path.join(workdir, "output.ll")
    result = subprocess.run([tool("mlir-translate"), "--mlir-to-llvmir", out_mlir, "-o", out_ll],
                            capture_output=True, text=True)
    if result.returncode != 0:
        return "output does not translate", result.stderr.strip()[-500:]
    compiled, error = compile_ll(out_ll, workdir, "output", reference.chip, reference.compiled.whole)
    if error:
        return "llc rejects the output", error
    new = compiled.diagnostics() - reference.compiled.diagnostics()
    if new:
        kind, message = sorted(new)[0]
        return "ptxas rejects the output", f"{kind}: {message}"
    ours, theirs = compiled.assembly, reference.compiled.assembly
    if ours and theirs and theirs.ok and not ours.ok:
        return "ptxas rejects the output", f"exit status {ours.returncode}: {ours.log.strip()[-300:]}"
    # The program runs the same before its cost is judged: a known cost
    # (--known) must not hide a wrong result.
    if harness:
        verdicts = diffexec.compare_modules(reference.ll, out_ll, workdir, seeds=(1, 2))
        for verdict in verdicts:
            if verdict.kind in diffexec.FAILING:
                return f"runs differently: {verdict.kind}", str(verdict)
    return worse_than_llc(reference.compiled, compiled, reference.chip) or ("success", "")


def outcome_key(outcome, detail):
    """What must stay the same while a failure is reduced."""
    return outcome if outcome != "refused" else f"refused: {detail}"


def reduce(kernels, failing, workdir):
    """Drops kernels, actions and attributes while `failing(kernels)` holds."""
    def still(candidate):
        return candidate and failing(candidate)

    changed = True
    while changed:
        changed = False
        for i in range(len(kernels)):
            candidate = kernels[:i] + kernels[i + 1:]
            if still(candidate):
                kernels, changed = candidate, True
                break
        for k in range(len(kernels)):
            for a in range(len(kernels[k].actions)):
                kernel = kernels[k]
                smaller = generate.Kernel(**{**kernel.__dict__, "actions": kernel.actions[:a] + kernel.actions[a + 1:]})
                if smaller.actions and still(kernels[:k] + [smaller] + kernels[k + 1:]):
                    kernels, changed = kernels[:k] + [smaller] + kernels[k + 1:], True
                    break
        for k in range(len(kernels)):
            kernel = kernels[k]
            for simpler in (dict(nested=False), dict(chip=""), dict(cc="ptx_kernelcc")):
                smaller = generate.Kernel(**{**kernel.__dict__, **simpler})
                if smaller.__dict__ != kernel.__dict__ and still(kernels[:k] + [smaller] + kernels[k + 1:]):
                    kernels, changed = kernels[:k] + [smaller] + kernels[k + 1:], True
                    kernel = smaller
    return kernels


def run_seed(job):
    seed, configs, ptxcc_opt, out_dir, harness = job
    try:
        return judge_seed(seed, configs, ptxcc_opt, out_dir, harness)
    except Exception as error:  # a problem of the harness: reported, not fatal
        return [(seed, "(input)", "harness error", f"{type(error).__name__}: {error}")]


def judge_seed(seed, configs, ptxcc_opt, out_dir, harness):
    results = []
    with tempfile.TemporaryDirectory(prefix=f"fuzz.{seed}.") as workdir:
        kernels = generate.make_kernels(seed)
        mlir = os.path.join(workdir, "input.mlir")
        with open(mlir, "w") as f:
            f.write(generate.render(kernels))
        reference = Reference(mlir, workdir)
        if reference.error:
            return [(seed, "(input)", "generator", reference.error)]
        for config in configs:
            outcome, detail = judge(ptxcc_opt, mlir, config, workdir, reference, harness)
            results.append((seed, config, outcome, detail))
            if outcome not in ("success", "refused") and out_dir:
                write_reproducer(seed, config, kernels, outcome, detail, ptxcc_opt, out_dir, harness)
    return results


def write_reproducer(seed, config, kernels, outcome, detail, ptxcc_opt, out_dir, harness):
    def failing(candidate):
        with tempfile.TemporaryDirectory(prefix="reduce.") as workdir:
            mlir = os.path.join(workdir, "input.mlir")
            with open(mlir, "w") as f:
                f.write(generate.render(candidate))
            reference = Reference(mlir, workdir)
            if reference.error:
                return False
            return outcome_key(*judge(ptxcc_opt, mlir, config, workdir, reference, harness)) == outcome_key(
                outcome, detail)

    reduced = reduce(kernels, failing, None)
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"seed{seed}-{re.sub(r'[^a-z0-9]+', '-', config)}.mlir")
    with open(path, "w") as f:
        f.write(f"// fuzz.py seed {seed}, ptxcc-opt {' '.join(CONFIGS[config][0])}\n")
        f.write(f"// {outcome}: {detail}\n".replace("\n", " ").rstrip() + "\n")
        f.write(generate.render(reduced))


def read_known(path):
    """{(seed, config, outcome, detail): why} from a file of lines
    `SEED CONFIG | OUTCOME | DETAIL | WHY` (`#` starts a comment): the
    outcomes a fixed run is known to give, each with its cause, reported
    as known instead of failing. DETAIL is the outcome's detail up to its
    first `;` (the function and its figures: a cost that grows is not the
    known one). One that does not happen fails the run, so the list cannot
    outlive what it describes."""
    known = {}
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            head, outcome, detail, why = (part.strip() for part in line.split("|", 3))
            seed, config = head.split()
            known[(int(seed), config, outcome, detail)] = why
    return known


def reason_class(detail):
    """The first words of a refusal, without names and numbers."""
    text = re.sub(r"'[^']*'|@[\w.$]+|\d+", "_", detail)
    return " ".join(text.split()[:8])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ptxcc-opt", default=os.path.join(REPO, "target", "release", "ptxcc-opt"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--config", action="append", choices=sorted(CONFIGS))
    parser.add_argument("--out", help="write each failure, reduced, here")
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--no-harness", action="store_true", help="skip the differential execution")
    parser.add_argument("--json", help="append every result as a JSON line to this file")
    parser.add_argument("--known", help="a file of known outcomes (see read_known); each must be seen")
    args = parser.parse_args()
    known = read_known(args.known) if args.known else {}
    configs = args.config or ["pipeline"]
    diffexec.build_tools()
    # A copy of the driver: a rebuild while a long run goes on must not
    # pull it away.
    private = tempfile.mkdtemp(prefix="fuzz-driver.")
    ptxcc_opt = os.path.join(private, "ptxcc-opt")
    shutil.copy2(args.ptxcc_opt, ptxcc_opt)
    jobs = [(seed, configs, ptxcc_opt, args.out, not args.no_harness)
            for seed in range(args.seed, args.seed + args.count)]
    counts = {config: Counter() for config in configs}
    reasons = Counter()
    failures = []
    with multiprocessing.Pool(args.jobs) as pool:
        for results in pool.imap_unordered(run_seed, jobs):
            for seed, config, outcome, detail in results:
                if config == "(input)":
                    failures.append((seed, config, outcome, detail))
                    continue
                counts[config][outcome] += 1
                if outcome == "refused":
                    reasons[reason_class(detail)] += 1
                elif outcome != "success":
                    failures.append((seed, config, outcome, detail))
                if args.json:
                    with open(args.json, "a") as f:
                        f.write(json.dumps(dict(seed=seed, config=config, outcome=outcome, detail=detail)) + "\n")
    seen = set()
    for seed, config, outcome, detail in sorted(failures):
        key = (seed, config, outcome, detail.split(";", 1)[0].strip())
        if key in known:
            seen.add(key)
            print(f"seed {seed} {config}: known: {outcome}: {detail} ({known[key]})")
        else:
            print(f"seed {seed} {config}: {outcome}: {detail}")
    failures = [f for f in failures if (f[0], f[1], f[2], f[3].split(";", 1)[0].strip()) not in seen]
    # (Known outcomes are ptxas's verdicts: without it some do not happen.)
    for key in sorted(set(known) - seen) if TOOLS.ptxas else []:
        if key[0] in range(args.seed, args.seed + args.count) and key[1] in configs:
            print(f"seed {key[0]} {key[1]}: known outcome not seen: {key[2]}: {key[3]} ({known[key]})")
            failures.append(key)
    for reason, count in reasons.most_common():
        print(f"refused x{count}: {reason}")
    for config in configs:
        summary = ", ".join(f"{count} {outcome}" for outcome, count in sorted(counts[config].items()))
        print(f"{config}: {sum(counts[config].values())} modules: {summary}")
    print(f"fuzz: seeds {args.seed}-{args.seed + args.count - 1}, {len(failures)} failures")
    shutil.rmtree(private, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
