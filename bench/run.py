#!/usr/bin/env python3
"""Compile-time benchmark: ptxcc-opt's pipeline against mlir-opt parsing and printing.

For each size, bench/generate.py writes one module of N llvm.func definitions
(copies of bench/kernels.cu's device code, imported through clang and
mlir-translate), and this script measures the median wall time of

  (a) mlir-opt FILE -o OUT                          MLIR's own parse + verify + print
  (b) ptxcc-opt FILE -o OUT                         the driver's parse + verify + print
  (c) ptxcc-opt FILE --ptxcc-pipeline -o OUT        the whole lowering
  (r) mlir-opt LOWERED -o OUT                       mlir-opt on (c)'s output: what parsing
                                                    and printing a module of the output's
                                                    size costs (a reference, no target)
  (d) once more (c) with --mlir-timing, whose report gives the time per pass
      (and mlir-opt --mlir-timing once, for its Parser / Output split).

for every shape (bench/generate.py's SHAPES: bench/kernels.cu, the e2e CUDA
tests at -O2 and at -O0, externally visible device functions) and size.
(a), (b), (c) and (r) run interleaved (one of each per round), so the machine's
load drifts over all four alike; each run's CPU time (user + system) and
peak RSS come from wait4. --json FILE appends one line per run. --bytecode
also times mlir-opt and the pipeline reading and writing MLIR bytecode.
--instructions also counts each command's instructions under callgrind. A last
table checks the targets: the pipeline against mlir-opt, its growth over
tenfold sizes, and peak RSS.

Usage: python3 bench/run.py [--shapes bench,e2e,external,e2e-O0] [--sizes 1000,5000,20000] [--repeat 3]
                          [--markdown] [--json FILE] [--instructions]
"""

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import generate  # noqa: E402


class BenchError(Exception):
    pass


def tail(text, n=25):
    return "\n".join(text.strip().splitlines()[-n:])


def check_tool(path, what):
    if os.path.isfile(path) and os.access(path, os.X_OK):
        return path
    found = shutil.which(path)
    if found:
        return found
    raise BenchError(f"{what} not found: {path}")


TIMEOUT = None


class RusagePopen(subprocess.Popen):
    """Popen that keeps its child's own rusage (wait4) as (cpu seconds, peak RSS kB).

    It overrides CPython's `Popen._try_wait` (waitpid), the one place the
    child is reaped; where that hook is missing, the run has no rusage and
    its CPU time and RSS are reported as unknown.
    """

    def _try_wait(self, wait_flags):
        try:
            pid, status, usage = os.wait4(self.pid, wait_flags)
        except ChildProcessError:
            return (self.pid, 0)
        if pid == self.pid:
            self.rusage = (usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
        return (pid, status)


class Run:
    """One run of a command: wall and CPU (user + system) seconds, peak RSS."""

    def __init__(self, wall, cpu, max_rss_kb, stderr):
        self.wall, self.cpu, self.max_rss_kb, self.stderr = wall, cpu, max_rss_kb, stderr


def run_once(cmd):
    """Run cmd; return a Run (its own rusage, from wait4). Raise on failure."""
    t0 = time.perf_counter()
    try:
        p = RusagePopen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        raise BenchError(f"cannot run {cmd[0]}: {e}")
    try:
        _, err = p.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        raise BenchError(f"command timed out after {TIMEOUT} s (--timeout): {' '.join(cmd)}")
    dt = time.perf_counter() - t0
    usage = getattr(p, "rusage", None)
    if p.returncode != 0:
        raise BenchError(f"command failed (exit {p.returncode}): {' '.join(cmd)}\n"
                         f"--- stderr (tail) ---\n{tail(err)}")
    cpu, rss = usage if usage else (float("nan"), 0)
    return Run(dt, cpu, rss, err)




def measure_interleaved(commands, repeat):
    """Runs each of `commands` ({name: argv}) `repeat` times, in turn (one
    of each, then the next round), so that the machine's load drifts over
    all of them alike; returns {name: [Run]}."""
    runs = {name: [] for name in commands}
    for _ in range(repeat):
        for name, cmd in commands.items():
            runs[name].append(run_once(cmd))
    return runs


COLLECTED_RE = re.compile(r"Collected\s*:\s*(\d+)")


def count_instructions(cmd, workdir):
    """Instructions `cmd` executes, counted by valgrind's callgrind (all
    threads together). Unlike time, the count does not depend on the
    machine's load or memory system: its growth with the module's size is
    the algorithm's."""
    valgrind = check_tool("valgrind", "valgrind (for --instructions)")
    profile = os.path.join(workdir, "callgrind.out")
    run = run_once([valgrind, "--tool=callgrind", f"--callgrind-out-file={profile}", *cmd])
    if os.path.exists(profile):
        os.remove(profile)
    found = COLLECTED_RE.search(run.stderr)
    if not found:
        raise BenchError(f"no instruction count in callgrind's report:\n{tail(run.stderr)}")
    return int(found.group(1))


def generate_module(n, out, templates, opt, workdir):
    """bench/generate.py in a process of its own, returning its info.

    Not in this process: a child's peak RSS (`wait4`'s `ru_maxrss`) starts
    at its parent's, so a benchmark process that had held a large module's
    text would report at least that much for every command it ran after."""
    info_path = os.path.join(workdir, "info.json")
    cmd = [sys.executable, os.path.join(HERE, "generate.py"), "--functions", str(n), "-o", out, "-O", opt[2:]]
    for template in templates:
        cmd += ["--cuda", template]
    run_once(cmd + ["--info", info_path])
    with open(info_path) as f:
        info = json.load(f)
    os.remove(info_path)
    return info


def median(runs, field):
    return statistics.median(getattr(r, field) for r in runs)


# ------------------------------------------------------------------ --mlir-timing report

TIME_RE = re.compile(r"(\d+(?:\.\d+)?)\s+\(\s*\d+(?:\.\d+)?%\)")


def parse_timing(stderr):
    """Rows of MLIR's execution time report: [(depth, name, wall seconds)].

    The report looks like

      ===----...----===
                   ... Execution time report ...
      ===----...----===
        Total Execution Time: 0.0181 seconds

        ----User Time----  ----Wall Time----  ----Name----
          0.0154 ( 76.2%)    0.0154 ( 84.8%)  LowerStructArgs
          0.0020 ( 10.1%)    0.0020 ( 11.3%)  'llvm.func' Pipeline
          0.0020 (  9.9%)    0.0020 ( 11.1%)    ConvertPtxccToLlvm
          ...
          0.0202 (100.0%)    0.0181 (100.0%)  Total

    with one "value (pct%)" column per header entry ("User Time" only when
    MLIR runs multi-threaded) and the name indented two more spaces per
    nesting level. Several reports (one per pass manager) are all returned.
    """
    rows = []
    cols = None
    for line in stderr.splitlines():
        if "----Name----" in line:
            cols = re.findall(r"----([^-].*?)----", line)
            continue
        if cols is None:
            continue
        if line.startswith("==="):          # the next report begins
            cols = None
            continue
        ms = list(TIME_RE.finditer(line))
        if not ms or line[:ms[0].start()].strip():
            continue
        values = [float(m.group(1)) for m in ms]
        rest = line[ms[-1].end():]
        name = rest.strip()
        if not name:
            continue
        indent = len(rest) - len(rest.lstrip(" "))
        depth = max(0, (indent - 2) // 2)
        names = [c for c in cols if c != "Name"]
        if "Wall Time" in names and len(values) == len(names):
            wall = values[names.index("Wall Time")]
        else:
            wall = values[-1]              # the wall column is the last time column
        rows.append((depth, name, wall))
    return rows


# ------------------------------------------------------------------ tables

def fmt_table(headers, rows, markdown, align=None):
    align = align or ["r"] * len(headers)
    cells = [[str(c) for c in r] for r in rows]
    if markdown:
        out = ["| " + " | ".join(headers) + " |",
               "|" + "|".join(("---:" if a == "r" else ":---") for a in align) + "|"]
        out += ["| " + " | ".join(r) + " |" for r in cells]
        return "\n".join(out)
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h)
              for i, h in enumerate(headers)]

    def line(r):
        return "  ".join((c.rjust(w) if a == "r" else c.ljust(w))
                         for c, w, a in zip(r, widths, align)).rstrip()
    out = [line(headers), "  ".join("-" * w for w in widths)]
    out += [line(r) for r in cells]
    return "\n".join(out)


def s(x):
    return f"{x:.3f}"


def print_table(title, headers, rows, md, align=None):
    """Prints `title` (bold in markdown, without its backquotes as plain
    text) and the table below it."""
    print(f"**{title}**" if md else f"{title.replace('`', '')}:")
    print()
    print(fmt_table(headers, rows, md, align))
    print()


# The compile-time targets (issues 19 and 33): for every shape, the pipeline
# at most RATIO_TARGET x mlir-opt's parse+print at every size; when the
# module grows tenfold, its time grows no faster than mlir-opt's parse+print
# in the same run (or at most GROWTH_TARGET x: linear within 5%, where
# mlir-opt's own growth happened to be lower); and a peak RSS at most
# RSS_TARGET x mlir-opt's.
RATIO_TARGET = 1.15
GROWTH_TARGET = 10.5
RSS_TARGET = 1.10


def tenfold_pairs(results):
    """The (smaller, larger) results whose function counts differ tenfold."""
    return [(r, q) for r in results for q in results if q["shape"] == r["shape"] and q["n"] == 10 * r["n"]]


def print_targets(results, md):
    """One row per target and size (or tenfold pair of sizes): the measured
    value, the target and whether it is met. Growth is shown for mlir-opt and
    ptxcc-opt's parse+print too, since the pipeline cannot grow more slowly
    than the parsing and printing it contains."""
    rows = []

    def verdict(ok):
        return "met" if ok else "missed"

    for r in results:
        ratio = r["pipe"] / r["mlir"]
        rows.append([f"pipeline / mlir-opt, wall, {r['shape']} {r['n']} fn", f"{ratio:.2f}x", f"<= {RATIO_TARGET}x",
                     verdict(ratio <= RATIO_TARGET)])
    for small, large in tenfold_pairs(results):
        span = f"{small['shape']} {small['n']} -> {large['n']} fn"
        growth = large["pipe"] / small["pipe"]
        bound = max(GROWTH_TARGET, large["mlir"] / small["mlir"])
        rows.append([f"pipeline growth, wall, {span}", f"{growth:.2f}x",
                     f"<= {bound:.2f}x (mlir-opt's, or {GROWTH_TARGET}x)", verdict(growth <= bound)])
        for key, label in (("mlir", "mlir-opt parse+print"), ("parse", "ptxcc-opt parse+print")):
            rows.append([f"{label} growth, wall, {span}", f"{large[key] / small[key]:.2f}x", "(reference)", ""])
        if small["instructions"] and large["instructions"]:
            def grew(key):
                return large["instructions"][key] / small["instructions"][key]
            rows.append([f"pipeline growth, instructions, {span}", f"{grew('pipeline'):.2f}x",
                         f"<= {GROWTH_TARGET}x", verdict(grew("pipeline") <= GROWTH_TARGET)])
            for key in ("ptxcc-opt", "mlir-opt"):
                rows.append([f"{key} growth, instructions, {span}", f"{grew(key):.2f}x", "(reference)", ""])
    for r in results:
        rows.append([f"pipeline / mlir-opt on the pipeline's output, wall, {r['shape']} {r['n']} fn",
                     f"{r['pipe'] / r['lowered']:.2f}x", "(reference)", ""])
    for r in results:
        rss = r["rss_pipe"] / r["rss_mlir"]
        rows.append([f"peak RSS, pipeline / mlir-opt, {r['shape']} {r['n']} fn", f"{rss:.3f}x", f"<= {RSS_TARGET}x",
                     verdict(rss <= RSS_TARGET)])
        rows.append([f"peak RSS, pipeline / mlir-opt on the pipeline's output, {r['shape']} {r['n']} fn",
                     f"{r['rss_pipe'] / r['rss_lowered']:.3f}x", "(reference)", ""])
    if any(r["instructions"] for r in results):
        headers = ["shape", "functions", "mlir-opt", "ptxcc-opt parse+print", "pipeline", "pipeline / mlir-opt"]
        irows = [[r["shape"], r["n"], f"{r['instructions']['mlir-opt']:,}", f"{r['instructions']['ptxcc-opt']:,}",
                  f"{r['instructions']['pipeline']:,}",
                  f"{r['instructions']['pipeline'] / r['instructions']['mlir-opt']:.2f}x"]
                 for r in results if r["instructions"]]
        print_table("Instructions executed (callgrind, one run)", headers, irows, md)
    print_table("Targets", ["measure", "value", "target", "verdict"], rows, md, align=["l", "r", "l", "l"])


# ------------------------------------------------------------------ main

def main():
    default_ptxcc = os.path.join(REPO, "target/release/ptxcc-opt")
    if not os.path.exists(default_ptxcc):
        default_ptxcc = os.path.join(REPO, "target/debug/ptxcc-opt")
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ptxcc-opt", default=default_ptxcc,
                    help="ptxcc-opt binary (default: target/release/ptxcc-opt if it exists, "
                         "else target/debug/ptxcc-opt)")
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt",
                    help="mlir-opt binary (default: /usr/lib/llvm-22/bin/mlir-opt)")
    ap.add_argument("--sizes", default="1000,5000,20000",
                    help="comma-separated function counts (default: 1000,5000,20000)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement; the median is shown")
    ap.add_argument("--shapes", default=",".join(generate.SHAPES),
                    help="comma-separated module shapes to measure, each replicated to every size "
                         f"(default: all of {', '.join(generate.SHAPES)}; see bench/README.md)")
    ap.add_argument("--cuda", action="append",
                    help="measure this CUDA template (repeat to merge several) instead of --shapes")
    ap.add_argument("--markdown", action="store_true", help="print markdown tables")
    ap.add_argument("--timeout", type=float, metavar="SECONDS",
                    help="fail when one command runs longer than this (default: no limit)")
    ap.add_argument("--keep", metavar="DIR", help="write the generated modules to DIR and keep them")
    ap.add_argument("--bytecode", action="store_true",
                    help="also time both tools on MLIR bytecode, read and written (--emit-bytecode)")
    ap.add_argument("--instructions", action="store_true",
                    help="also count each tool's instructions once per size under valgrind's callgrind "
                         "(slow: about 50x the run; machine-independent, so growth shows the algorithm, "
                         "not the memory system)")
    ap.add_argument("--json", metavar="FILE",
                    help="append one JSON line per run (commit, functions, tool, run, wall_s, cpu_s, max_rss_kb)")
    a = ap.parse_args()

    shapes = [x.strip() for x in a.shapes.split(",") if x.strip()]
    unknown = [x for x in shapes if x not in generate.SHAPES]
    if a.cuda:
        shapes = ["custom"]
    elif unknown or not shapes:
        sys.exit(f"run.py: error: unknown shape(s) {', '.join(unknown) or '(none given)'}; "
                 f"known: {', '.join(generate.SHAPES)}")
    try:
        sizes = [int(x) for x in a.sizes.split(",") if x.strip()]
        if not sizes or min(sizes) < 1:
            raise ValueError
    except ValueError:
        sys.exit(f"run.py: error: --sizes wants positive integers separated by commas, got {a.sizes!r}")
    if a.repeat < 1:
        sys.exit("run.py: error: --repeat must be at least 1")
    global TIMEOUT
    TIMEOUT = a.timeout

    try:
        ptxcc = check_tool(a.ptxcc_opt, "ptxcc-opt")
        mlir_opt = check_tool(a.mlir_opt, "mlir-opt")
        for t in ("clang", "mlir-translate"):
            check_tool(os.path.join(generate.LLVM_BIN, t), t)
        return bench(a, shapes, sizes, ptxcc, mlir_opt)
    except (BenchError, generate.GenerateError) as e:
        print(f"run.py: error: {e}", file=sys.stderr)
        return 1


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for l in f:
                if l.startswith("model name"):
                    return l.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def git_commit():
    """The repository's commit (for the JSON lines), or "unknown"."""
    try:
        p = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                           timeout=30)
        return p.stdout.strip() or "unknown"
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


def describe(binary):
    """The binary's --version line and modification time (builds change under us)."""
    try:
        p = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30)
        lines = [l.strip() for l in (p.stdout or p.stderr).splitlines() if l.strip()]
        version = next((l for l in lines if "version" in l.lower()), lines[0] if lines else "?")
    except (OSError, subprocess.TimeoutExpired):
        version = "?"
    built = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(os.path.getmtime(binary)))
    return f"{version}; built {built}"


def bench(a, shapes, sizes, ptxcc, mlir_opt):
    md = a.markdown
    cores = os.cpu_count()
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = cores
    print(f"machine: {cpu_model()}, {cores} cores ({usable} usable by this process)")
    print(f"ptxcc-opt: {ptxcc} ({describe(ptxcc)})")
    print(f"mlir-opt:  {mlir_opt} ({describe(mlir_opt)})")
    for shape in shapes:
        if shape == "custom":
            print(f"shape custom: {', '.join(a.cuda)} at -O2")
        else:
            files, opt, what = generate.SHAPES[shape]
            print(f"shape {shape}: {what} ({len(files())} CUDA file(s) at {opt})")
    print(f"templates compiled by clang and imported by mlir-translate from {generate.LLVM_BIN}")
    print(f"median of {a.repeat} interleaved run(s) per measurement, wall-clock seconds (CPU: user + system)")
    print(flush=True)

    commit = git_commit()
    results = []
    workroot = a.keep or tempfile.mkdtemp(prefix="ptxcc-bench-")
    os.makedirs(workroot, exist_ok=True)
    mixes = {}
    try:
        for shape in shapes:
            if shape == "custom":
                templates, opt = a.cuda, "-O2"
            else:
                templates, opt = generate.shape_templates(shape)
            for n in sizes:
                src = os.path.join(workroot, f"{shape}-{n}.mlir")
                out = os.path.join(workroot, f"{shape}-{n}.out.mlir")
                print(f"[{shape} {n}] generating ...", file=sys.stderr, flush=True)
                info = generate_module(n, src, templates, opt, workroot)
                mixes[shape] = info["template"]
                print(f"[{shape} {n}] {info['functions']} functions, {info['lines']} lines; measuring ...",
                      file=sys.stderr, flush=True)
                # The pipeline's output, for mlir-opt to parse and print too:
                # what the output's size alone costs.
                lowered = out + ".lowered.mlir"
                run_once([ptxcc, src, "--ptxcc-pipeline", "-o", lowered])
                runs = measure_interleaved(
                    {
                        "mlir-opt": [mlir_opt, src, "-o", out + ".mlir-opt"],
                        "ptxcc-opt": [ptxcc, src, "-o", out],
                        "ptxcc-opt --ptxcc-pipeline": [ptxcc, src, "--ptxcc-pipeline", "-o", out],
                        "mlir-opt on the output": [mlir_opt, lowered, "-o", out + ".mlir-opt-lowered"],
                    },
                    a.repeat,
                )
                for p in (lowered, out + ".mlir-opt-lowered"):
                    os.remove(p)
                if a.json:
                    with open(a.json, "a") as jf:
                        for tool, tool_runs in runs.items():
                            for k, r in enumerate(tool_runs):
                                jf.write(json.dumps(dict(commit=commit, shape=shape, functions=info["functions"], tool=tool, run=k,
                                                         wall_s=round(r.wall, 4), cpu_s=round(r.cpu, 4),
                                                         max_rss_kb=r.max_rss_kb)) + "\n")
                # What each printer wrote: the pipeline's output is larger
                # than its input (clones, wrappers, unrolled loops), and
                # printing costs in proportion.
                out_ratio = os.path.getsize(out) / os.path.getsize(out + ".mlir-opt")
                os.remove(out + ".mlir-opt")
                t_mlir = median(runs["mlir-opt"], "wall")
                t_parse = median(runs["ptxcc-opt"], "wall")
                t_pipe = median(runs["ptxcc-opt --ptxcc-pipeline"], "wall")
                t_lowered = median(runs["mlir-opt on the output"], "wall")
                rss_lowered = max(r.max_rss_kb for r in runs["mlir-opt on the output"])
                c_mlir = median(runs["mlir-opt"], "cpu")
                c_pipe = median(runs["ptxcc-opt --ptxcc-pipeline"], "cpu")
                rss_mlir = max(r.max_rss_kb for r in runs["mlir-opt"])
                rss_pipe = max(r.max_rss_kb for r in runs["ptxcc-opt --ptxcc-pipeline"])
                bytecode = None
                if a.bytecode:
                    src_bc, out_bc = src + "bc", out + "bc"
                    run_once([mlir_opt, src, "--emit-bytecode", "-o", src_bc])
                    bc_runs = measure_interleaved(
                        {
                            "mlir-opt (bytecode)": [mlir_opt, src_bc, "--emit-bytecode", "-o", out_bc],
                            "ptxcc-opt --ptxcc-pipeline (bytecode)": [
                                ptxcc, src_bc, "--ptxcc-pipeline", "--emit-bytecode", "-o", out_bc],
                        },
                        a.repeat,
                    )
                    bytecode = (median(bc_runs["mlir-opt (bytecode)"], "wall"),
                                median(bc_runs["ptxcc-opt --ptxcc-pipeline (bytecode)"], "wall"))
                    for p in (src_bc, out_bc):
                        if not a.keep and os.path.exists(p):
                            os.remove(p)
                instructions = None
                if a.instructions:
                    print(f"[{shape} {n}] counting instructions under callgrind ...", file=sys.stderr, flush=True)
                    instructions = {
                        "mlir-opt": count_instructions([mlir_opt, src, "-o", out], workroot),
                        "ptxcc-opt": count_instructions([ptxcc, src, "-o", out], workroot),
                        "pipeline": count_instructions([ptxcc, src, "--ptxcc-pipeline", "-o", out], workroot),
                    }
                timed = run_once([ptxcc, src, "--ptxcc-pipeline", "--mlir-timing", "-o", out])
                t_timed, err = timed.wall, timed.stderr
                passes = parse_timing(err)
                if not passes:
                    print(f"[{shape} {n}] warning: no timing report found in ptxcc-opt's stderr:\n{tail(err)}",
                          file=sys.stderr)
                merr = run_once([mlir_opt, src, "--mlir-timing", "-o", out]).stderr
                mpasses = parse_timing(merr)
                results.append(dict(shape=shape, n=info["functions"], requested=n, lines=info["lines"], out_ratio=out_ratio,
                                    lowered=t_lowered, rss_lowered=rss_lowered,
                                    mlir=t_mlir, parse=t_parse, pipe=t_pipe, timed=t_timed,
                                    cmlir=c_mlir, cpipe=c_pipe, rss_mlir=rss_mlir, rss_pipe=rss_pipe, bytecode=bytecode,
                                    instructions=instructions,
                                    passes=passes, mpasses=mpasses))
                for p in (src, out):
                    if not a.keep and os.path.exists(p):
                        os.remove(p)
    finally:
        if not a.keep:
            shutil.rmtree(workroot, ignore_errors=True)

    # Table 1: whole-process times.
    headers = ["shape", "functions", "lines of MLIR", "output size: pipeline / mlir-opt", "mlir-opt s", "ptxcc-opt parse+print s",
               "pipeline s", "pipeline / mlir-opt", "CPU: pipeline / mlir-opt", "peak RSS MB: mlir-opt / pipeline",
               "mlir-opt on the output s", "peak RSS MB: mlir-opt on the output",
               "mlir-opt ms / 1k fn", "pipeline ms / 1k fn"]
    rows = []
    for r in results:
        rows.append([r["shape"], r["n"], r["lines"], f"{r['out_ratio']:.2f}x", s(r["mlir"]), s(r["parse"]), s(r["pipe"]),
                     f"{r['pipe'] / r['mlir']:.2f}x", f"{r['cpipe'] / r['cmlir']:.2f}x",
                     f"{r['rss_mlir'] // 1024} / {r['rss_pipe'] // 1024}",
                     s(r["lowered"]), f"{r['rss_lowered'] // 1024}",
                     f"{1e6 * r['mlir'] / r['n']:.1f}", f"{1e6 * r['pipe'] / r['n']:.1f}"])
    print_table("Whole-process wall time (median)", headers, rows, md, align=["l"] + ["r"] * (len(headers) - 1))

    # Table 1b: the same on MLIR bytecode, in and out (--bytecode).
    if any(r["bytecode"] for r in results):
        headers = ["shape", "functions", "mlir-opt s", "pipeline s", "pipeline / mlir-opt"]
        rows = [[r["shape"], r["n"], s(r["bytecode"][0]), s(r["bytecode"][1]), f"{r['bytecode'][1] / r['bytecode'][0]:.2f}x"]
                for r in results if r["bytecode"]]
        print_table("MLIR bytecode in and out (`--emit-bytecode`), wall time (median)", headers, rows, md)

    # Table 2: per-pass times from --mlir-timing.
    order = []
    for r in results:
        for tool, rows_ in (("ptxcc-opt --ptxcc-pipeline", r["passes"]), ("mlir-opt", r["mpasses"])):
            for depth, name, _ in rows_:
                key = (tool, depth, name)
                if key not in order:
                    order.append(key)
    headers = ["tool", "timer"] + [f"{r['shape']} {r['n']} fn" for r in results]
    rows = []
    for tool, depth, name in order:
        label = ("&nbsp;" * 4 * depth if md else "  " * depth) + name
        vals = []
        for r in results:
            src = r["passes"] if tool.startswith("ptxcc") else r["mpasses"]
            # Names can repeat (a pass run twice): sum them.
            hits = [w for d, nm, w in src if d == depth and nm == name]
            vals.append(s(sum(hits)) if hits else "-")
        rows.append([tool, label] + vals)
    outside = ["ptxcc-opt --ptxcc-pipeline", "process wall − report Total (start, parse, print)"]
    for r in results:
        tot = [w for d, nm, w in r["passes"] if d == 0 and nm == "Total"]
        outside.append(s(r["timed"] - tot[0]) if tot else "-")
    rows.append(outside)
    rows.append(["ptxcc-opt --ptxcc-pipeline", "process wall with --mlir-timing (1 run)"]
                + [s(r["timed"]) for r in results])
    print_table("Per-pass wall time from `--mlir-timing`, seconds (one run)", headers, rows, md, align=["l", "l"] + ["r"] * len(results))

    print_targets(results, md)

    for shape, mix in mixes.items():
        print(f"Template of {shape} (one copy): "
              f"{mix['definitions']} definitions = {mix['kernels']} kernels + "
              f"{mix['device_functions']} device functions; {mix['functions_with_byval']} take "
              f"byval structs ({mix['byval_params']} byval params), {mix['functions_with_alloca']} "
              f"have allocas ({mix['allocas']}), {mix['functions_with_calls']} call other "
              f"definitions ({mix['calls_to_definitions']} calls), "
              f"{mix['struct_or_array_results']} return a struct or array.")
    for r in results:
        if r["n"] != r["requested"]:
            print(f"note: {r['shape']}: {r['requested']} functions requested, {r['n']} generated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
