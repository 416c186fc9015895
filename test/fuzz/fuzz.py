#!/usr/bin/env python3
"""Runs generated modules (generate.py) through ptxcc-opt and judges every
outcome.

    fuzz.py --ptxcc-opt PATH --seed S --count N [--config NAME]... [--out DIR] [--jobs J]

For each module and each configuration (the pipeline; the pipeline with
opt-byval=false; the pipeline with llvm-opt-after=true; each pass alone, lower-struct-args followed by the
conversion so that its output translates), the outcome is one of:

- success: ptxcc-opt exits 0, its output holds no ptxcc op (where the
  configuration lowers them), `mlir-translate` and `llc` accept it, every
  kernel runs the same as the input under the differential harness
  (test/harness), and `llc` gives no kernel more local memory than it gives
  the input;
- refused: exit 1 with every error located (`file:line:col: error: ...`);
  the reasons are counted by their first words;
- anything else is a failure: a crash or abort, a hang, an unlocated error,
  output that does not translate or that llc rejects, ptxcc ops left, a
  kernel that computes something else, faults or changed its launch ABI,
  more local memory than llc alone.

Each failure is reduced (kernels, then actions, then attributes are dropped
while the same failure remains) and written to --out as a reproducer.
The last line is a summary; the exit status is 1 when anything failed.
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
from ptx_metrics import kernel_bodies, measure  # noqa: E402

# name: (ptxcc-opt arguments, whether the output may keep ptxcc ops)
CONFIGS = {
    "pipeline": (["--ptxcc-pipeline"], False),
    "opt-byval=false": (["--ptxcc-pipeline=opt-byval=false"], False),
    "llvm-opt-after": (["--ptxcc-pipeline=llvm-opt-after=true"], False),
    "lower-struct-args": (["--lower-struct-args", "--convert-ptxcc-to-llvm"], False),
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


def ptx_locals(ll, workdir, name, chip):
    """{kernel: local bytes} of `ll` under llc, or an error message."""
    ptx = os.path.join(workdir, name + ".ptx")
    command = [tool("llc"), "-mtriple=nvptx64-nvidia-cuda", f"-mcpu={chip}", "-mattr=+ptx80", ll, "-o", ptx]
    result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
    if result.returncode != 0:
        return None, result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "llc failed"
    with open(ptx) as f:
        return {kernel: measure(body)[0] for kernel, body in kernel_bodies(f.read())}, None


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
        self.locals, error = ptx_locals(self.ll, workdir, "reference", self.chip)
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
    locals_, error = ptx_locals(out_ll, workdir, "output", reference.chip)
    if error:
        return "llc rejects the output", error
    for kernel, before in reference.locals.items():
        after = locals_.get(kernel)
        if after is None:
            return "kernel lost", kernel
        if after > before:
            return "worse than llc", f"{kernel}: {before} -> {after} local bytes"
    if harness:
        verdicts = diffexec.compare_modules(reference.ll, out_ll, workdir, seeds=(1, 2))
        for verdict in verdicts:
            if verdict.kind in diffexec.FAILING:
                return f"runs differently: {verdict.kind}", str(verdict)
    return "success", ""


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
    args = parser.parse_args()
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
    for seed, config, outcome, detail in sorted(failures):
        print(f"seed {seed} {config}: {outcome}: {detail}")
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
