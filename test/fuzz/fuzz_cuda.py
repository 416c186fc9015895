#!/usr/bin/env python3
"""Runs generated CUDA files (generate_cuda.py) through clang, ptxcc-opt and
the differential harness (test/harness), and judges every kernel.

    fuzz_cuda.py --ptxcc-opt PATH --seed S --count N [--opt LEVEL]... [--kernels K]
                 [--jobs J] [--out DIR] [--timeout T]

For each file (seeds S to S+N-1) and each clang configuration (--opt: 0,
1, 2, 3 and 2nounroll, clang -O2 -fno-unroll-loops; default all five),
clang's device IR is imported by ptxcc-opt (diffexec.cuda_to_mlir) and goes
through `--ptxcc-pipeline` and `--ptxcc-pipeline=llvm-opt-after=true`
(diffexec.through_ptxcc); every kernel runs before and after on the host
(diffexec.compare_modules), every byte written compared, padding included.
ptxcc-opt runs with PTXCC_FALLBACK=error, under a time limit.

A failure is: ptxcc-opt exits with an error, crashes or runs past the time
limit; its output does not translate; it warns of an internal error ("please
report", the fallback that keeps the input); a kernel differs, faults or
hangs. A kernel the harness calls `reference invalid` or `unsupported`, and
a file clang rejects, are failures of the generator (it must write valid
programs the host can run).

Once per file and configuration, `promote-remarks=true` says which arrays
promote-local-arrays promoted and which it kept; the totals are printed (the
generator must exercise the promotion, not only the refusals).

With --out, each failure is reduced (kernels, then statements, are dropped
while the same failure remains: the same kernel with the same verdict, for
`differs` in the same buffer and of the same class, bytes that follow the
stack fill (a lost store: padding) or a wrong value, or the same kind of
error with the same message; ptxcc-opt's time limit is 10 s meanwhile) and
written there as a `.cu` reproducer with the command that shows it: at most
--reproducers per file and --per-class per class of failure, which keeps a
run whose every file shows one bug from reducing them all. Failures are
printed as each file finishes, then counted by class; the last line is a
summary, and the exit status is 1 when anything failed.
"""

import argparse
import copy
import multiprocessing
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "test", "harness"))
import diffexec  # noqa: E402
import generate_cuda  # noqa: E402

# name: (clang -O level, more clang flags)
CONFIGS = {
    "0": ("0", []),
    "1": ("1", []),
    "2": ("2", []),
    "3": ("3", []),
    "2nounroll": ("2", ["-fno-unroll-loops"]),
}
PIPELINES = {
    "pipeline": ["--ptxcc-pipeline"],
    "llvm-opt-after": ["--ptxcc-pipeline=llvm-opt-after=true"],
}
HARNESS_SEEDS = (1, 2)
REDUCE_TIMEOUT = 10
FALLBACK = "please report"

# ptxcc-opt under a time limit ($PTXCC_TIMEOUT seconds), with
# PTXCC_FALLBACK=error; its stderr also goes to $PTXCC_STDERR_LOG
# (diffexec's functions keep only a failing run's).
WRAPPER = """#!/bin/sh
err=$(mktemp)
limit=${{PTXCC_TIMEOUT:-{timeout}}}
PTXCC_FALLBACK=error timeout -s KILL $limit "{real}" "$@" 2>"$err"
rc=$?
if [ $rc -eq 137 ]; then echo "ptxcc-opt: no result after $limit s" >>"$err"; fi
if [ $rc -ne 0 ]; then echo "ptxcc-opt: exit status $rc" >>"$err"; fi
cat "$err" >&2
if [ -n "$PTXCC_STDERR_LOG" ]; then cat "$err" >>"$PTXCC_STDERR_LOG"; fi
rm -f "$err"
exit $rc
"""


def signature(text):
    """A message without names, numbers and locations: what stays the same
    while a failure is reduced."""
    text = re.sub(r"^.*?(error|warning): ", "", text.strip())
    text = re.sub(r"'[^']*'|\"[^\"]*\"|[@%^][\w.$-]+|\d+", "_", text)
    return " ".join(text.split()[:12])


def ptxcc_failure(log):
    """(kind, detail) of a ptxcc-opt run that failed, from its stderr."""
    lines = log.strip().splitlines()
    status = next((int(m.group(1)) for m in map(re.compile(r"ptxcc-opt: exit status (\d+)").search, lines) if m), 1)
    if any("no result after" in line for line in lines):
        return "hang", next(line for line in lines if "no result after" in line)
    errors = [line for line in lines if "error:" in line]
    if status > 1 or any("panicked" in line or "PLEASE submit" in line for line in lines):
        return "crash", (errors or [line for line in lines if "panicked" in line] or lines or ["?"])[0][-300:]
    return "pipeline error", (errors or lines or ["exit status 1"])[0][-300:]


def run_ptxcc(driver, mlir, arguments):
    """A run of the driver that only reports: (stderr, exit status)."""
    result = subprocess.run([driver, mlir, *arguments, "-o", os.devnull], capture_output=True, text=True)
    return result.stderr, result.returncode


def judge_config(cu, workdir, config, driver, pipelines, remarks=True):
    """Runs one file under one clang configuration: ([(pipeline, kernel,
    kind, detail)], (promoted, kept) or None)."""
    opt, flags = CONFIGS[config]
    os.makedirs(workdir, exist_ok=True)
    try:
        mlir = diffexec.cuda_to_mlir(cu, workdir, opt, False, driver, clang_flags=flags)
    except diffexec.ToolError as error:
        return [("-", "(file)", "generator", str(error)[-600:])], None
    results = []
    counts = None
    for name in pipelines:
        pdir = os.path.join(workdir, name)
        os.makedirs(pdir, exist_ok=True)
        log = os.path.join(pdir, "ptxcc-opt.stderr")
        open(log, "w").close()
        os.environ["PTXCC_STDERR_LOG"] = log
        try:
            ref_ll, out_ll = diffexec.through_ptxcc(mlir, pdir, driver, PIPELINES[name])
        except diffexec.ToolError as error:
            message = str(error)
            if message.startswith("ptxcc-opt failed"):
                with open(log) as f:
                    kind, detail = ptxcc_failure(f.read())
            elif message.startswith("mlir-translate (output)"):
                kind, detail = "output does not translate", message.splitlines()[-1][-300:]
            else:
                kind, detail = "generator", message[-600:]
            results.append((name, "(module)", kind, detail))
            continue
        finally:
            os.environ.pop("PTXCC_STDERR_LOG", None)
        with open(log) as f:
            warned = [line for line in f.read().splitlines() if FALLBACK in line]
        if warned:
            results.append((name, "(module)", "fallback warning", warned[0][-300:]))
        for verdict in diffexec.compare_modules(ref_ll, out_ll, pdir, seeds=HARNESS_SEEDS):
            kind = verdict.kind
            if kind in ("reference invalid", "unsupported"):
                kind = f"generator: {kind}"
            results.append((name, verdict.kernel, kind, verdict.detail))
    if remarks and not any(kind in ("hang", "crash") for _, _, kind, _ in results):
        stderr, _ = run_ptxcc(driver, mlir, ["--ptxcc-pipeline=promote-remarks=true"])
        counts = (stderr.count("remark: promoted to registers"), stderr.count("remark: kept in local memory"))
    return results, counts


def is_failure(kind):
    return kind != "same"


def difference_class(detail):
    """Of a `differs` verdict: the buffer, and whether the wrong bytes
    follow the fill (a store lost: padding, a clearing) or not (a wrong
    value)."""
    found = re.search(r"seed \d+: (.*?), byte \d+: expected \w+, got ([\w/]+)", detail)
    if not found:
        return signature(detail)
    got = found.group(2).split("/")
    return f"{found.group(1)}: {'follows the fill' if len(set(got)) > 1 else 'wrong value'}"


def failure_key(kernel, kind, detail):
    """What must stay the same while a failure is reduced: a kernel's
    verdict (for `differs`, the buffer and the class of difference), or a
    module's kind of error and its message."""
    if kernel.startswith("("):
        return ("module", kind, signature(detail))
    return ("kernel", kernel, kind, difference_class(detail) if kind == "differs" else "")


def still_fails(kernels, config, pipeline, key, driver):
    with tempfile.TemporaryDirectory(prefix="fuzz-cuda-reduce.") as workdir:
        cu = os.path.join(workdir, "input.cu")
        with open(cu, "w") as f:
            f.write(generate_cuda.render(kernels))
        results, _ = judge_config(cu, os.path.join(workdir, "run"), config, driver, [pipeline], remarks=False)
    return any(failure_key(kernel, kind, detail) == key for _, kernel, kind, detail in results)


def slots(kernel):
    """Every (body, index) of the kernel's statements, outermost first."""
    found = []

    def walk(body):
        for index, node in enumerate(body):
            found.append((body, index))
            for inner in node.bodies():
                walk(inner)

    walk(kernel.stmts)
    return found


def reduce(kernels, config, pipeline, key, driver, tries):
    """Drops kernels, then statements, while the failure `key` remains
    (with ptxcc-opt's time limit at most REDUCE_TIMEOUT: a candidate that
    still hangs is not waited for long)."""
    def fails(candidate):
        nonlocal tries
        if tries <= 0:
            return False
        tries -= 1
        return still_fails(candidate, config, pipeline, key, driver)

    if key[0] == "kernel":
        alone = [k for k in kernels if k.name == key[1]]
        if alone and fails(alone):
            kernels = alone
    else:
        for kernel in kernels:
            if len(kernels) > 1 and fails([kernel]):
                kernels = [kernel]
                break
    changed = True
    while changed and len(kernels) > 1:
        changed = False
        for i in range(len(kernels)):
            candidate = kernels[:i] + kernels[i + 1:]
            if fails(candidate):
                kernels, changed = candidate, True
                break
    for k in range(len(kernels)):
        index = 0
        while True:
            candidate = copy.deepcopy(kernels[k])
            places = slots(candidate)
            if index >= len(places) or tries <= 0:
                break
            body, at = places[index]
            del body[at]
            trial = kernels[:k] + [candidate] + kernels[k + 1:]
            if fails(trial):
                kernels = trial
            else:
                index += 1
    return kernels


def reproduce_command(path, config, pipeline):
    opt, flags = CONFIGS[config]
    extra = "".join(f" --clang-flag={flag}" for flag in flags)
    return (f"python3 test/harness/diffexec.py cuda {path} --opt {opt}{extra} "
            f"--pipeline={PIPELINES[pipeline][0]} --ptxcc-opt target/release/ptxcc-opt")


def write_reproducer(seed, kernel_count, config, pipeline, kernel, kind, detail, driver, out_dir, tries):
    kernels = generate_cuda.make_kernels(seed, kernel_count)
    key = failure_key(kernel, kind, detail)
    limit = os.environ.get("PTXCC_TIMEOUT")
    os.environ["PTXCC_TIMEOUT"] = str(min(int(limit or REDUCE_TIMEOUT), REDUCE_TIMEOUT))
    try:
        reduced = reduce(kernels, config, pipeline, key, driver, tries)
    finally:
        os.environ.pop("PTXCC_TIMEOUT", None) if limit is None else os.environ.update(PTXCC_TIMEOUT=limit)
    os.makedirs(out_dir, exist_ok=True)
    what = kernel if not kernel.startswith("(") else re.sub(r"[^a-z0-9]+", "-", kind)
    path = os.path.join(out_dir, f"seed{seed}-O{config}-{pipeline}-{what}.cu")
    opt, flags = CONFIGS[config]
    with open(path, "w") as f:
        f.write(f"// fuzz_cuda.py seed {seed}, clang -O{opt}{''.join(' ' + x for x in flags)}, "
                f"ptxcc-opt {' '.join(PIPELINES[pipeline])}\n")
        f.write(f"// {kernel}: {kind}: {detail}".replace("\n", " ")[:400] + "\n")
        f.write(f"// {reproduce_command(os.path.basename(path), config, pipeline)}\n")
        f.write(generate_cuda.render(reduced))
    return path


def run_seed(job):
    try:
        return judge_seed(*job)
    except Exception as error:  # a problem of the harness: reported, not fatal
        return job[0], [("-", "-", "(file)", "harness error", f"{type(error).__name__}: {error}")], {}, []


def failure_class(kind, detail):
    """Failures that are likely one cause, for --per-class."""
    if kind == "differs":
        return f"differs: {difference_class(detail).split(': ')[-1]}"
    return f"{kind}: {signature(detail)}"


def claim(classes, lock, name, limit):
    """Whether a reproducer of class `name` may still be written (the
    count shared by the workers)."""
    with lock:
        if classes.get(name, 0) >= limit:
            return False
        classes[name] = classes.get(name, 0) + 1
        return True


def judge_seed(seed, kernel_count, configs, driver, out_dir, reduce_tries, max_reproducers, shared):
    classes, lock, per_class = shared
    results, counts, written = [], {}, []
    reduced = set()
    with tempfile.TemporaryDirectory(prefix=f"fuzz-cuda.{seed}.") as workdir:
        cu = os.path.join(workdir, f"seed{seed}.cu")
        with open(cu, "w") as f:
            f.write(generate_cuda.render(generate_cuda.make_kernels(seed, kernel_count)))
        for config in configs:
            found, promoted = judge_config(cu, os.path.join(workdir, config), config, driver, list(PIPELINES))
            counts[config] = promoted
            for pipeline, kernel, kind, detail in found:
                results.append((config, pipeline, kernel, kind, detail))
                if not is_failure(kind) or not out_dir or kind.startswith("generator"):
                    continue
                # One reproducer per kernel or kind of error, a few per file.
                key = failure_key(kernel, kind, detail)
                if key in reduced or len(reduced) >= max_reproducers:
                    continue
                reduced.add(key)
                if not claim(classes, lock, failure_class(kind, detail), per_class):
                    continue
                written.append(write_reproducer(seed, kernel_count, config, pipeline, kernel, kind, detail, driver,
                                                out_dir, reduce_tries))
    return seed, results, counts, written


def private_driver(path, timeout):
    """A copy of the driver (a rebuild during a long run must not pull it
    away) behind the wrapper."""
    directory = tempfile.mkdtemp(prefix="fuzz-cuda-driver.")
    real = os.path.join(directory, "ptxcc-opt.real")
    shutil.copy2(path, real)
    wrapper = os.path.join(directory, "ptxcc-opt")
    with open(wrapper, "w") as f:
        f.write(WRAPPER.format(timeout=timeout, real=real))
    os.chmod(wrapper, os.stat(wrapper).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return directory, wrapper


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ptxcc-opt", default=os.path.join(REPO, "target", "release", "ptxcc-opt"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--kernels", type=int, help="kernels per file (default: generate_cuda.py's, 3 to 6)")
    parser.add_argument("--opt", action="append", choices=sorted(CONFIGS),
                        help="a clang configuration: 0, 1, 2, 3 or 2nounroll (default: all); repeatable")
    parser.add_argument("--out", help="write each failure, reduced, here")
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--timeout", type=int, default=30, help="seconds one ptxcc-opt run may take")
    parser.add_argument("--reduce-tries", type=int, default=100, help="harness runs one reduction may take")
    parser.add_argument("--reproducers", type=int, default=3, help="reproducers written per file at most")
    parser.add_argument("--per-class", type=int, default=4,
                        help="reproducers written per class of failure at most (the same kind and message)")
    args = parser.parse_args()
    configs = args.opt or list(CONFIGS)
    os.environ["PTXCC_FALLBACK"] = "error"
    diffexec.build_tools()
    directory, driver = private_driver(args.ptxcc_opt, args.timeout)
    seeds = range(args.seed, args.seed + args.count)
    manager = multiprocessing.Manager()
    shared = (manager.dict(), manager.Lock(), args.per_class)
    jobs = [(seed, args.kernels, configs, driver, args.out, args.reduce_tries, args.reproducers, shared)
            for seed in seeds]
    verdicts = {(config, pipeline): Counter() for config in configs for pipeline in PIPELINES}
    promoted = {config: [0, 0] for config in configs}
    failures = []
    try:
        with multiprocessing.Pool(args.jobs) as pool:
            for seed, results, counts, written in pool.imap_unordered(run_seed, jobs):
                for config, pipeline, kernel, kind, detail in results:
                    if config in configs and pipeline in PIPELINES:
                        verdicts[(config, pipeline)][kind] += 1
                    if is_failure(kind):
                        failures.append((seed, config, pipeline, kernel, kind, detail))
                        print(f"seed {seed} -O{config} {pipeline}: {kernel}: {kind}: {detail}".replace("\n", " ")[:600],
                              flush=True)
                for path in written:
                    print(f"reproducer: {path}", flush=True)
                for config, pair in counts.items():
                    if pair:
                        promoted[config][0] += pair[0]
                        promoted[config][1] += pair[1]
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    classes = Counter(failure_class(kind, detail) for _, _, _, _, kind, detail in failures)
    for name, count in classes.most_common():
        print(f"failures x{count}: {name}"[:300])
    kinds = Counter()
    for config in configs:
        for pipeline in PIPELINES:
            counted = verdicts[(config, pipeline)]
            kinds.update(counted)
            summary = ", ".join(f"{count} {kind}" for kind, count in sorted(counted.items()))
            print(f"-O{config} {pipeline}: {sum(counted.values())} kernels: {summary}")
        print(f"-O{config}: arrays promoted {promoted[config][0]}, kept {promoted[config][1]}")
    total_promoted = sum(p for p, _ in promoted.values())
    total_kept = sum(k for _, k in promoted.values())
    print(f"promote-local-arrays: {total_promoted} arrays promoted, {total_kept} kept")
    summary = ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items()))
    print(f"fuzz-cuda: seeds {args.seed}-{args.seed + args.count - 1}, {len(configs)} configurations, "
          f"{len(PIPELINES)} pipelines, {sum(kinds.values())} kernel runs ({summary}); {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
