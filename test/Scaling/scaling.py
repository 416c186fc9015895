"""Times ptxcc-opt on module shapes that doubled in size three times, and
fails when a pass grows faster than linearly.

  scaling.py PTXCC_OPT [--shape NAME]... [--max-ratio R]

For each shape (shapes.py), the module at each size is written to a
temporary file and ptxcc-opt runs the shape's passes on it (the median CPU
time of a few runs); the time of parsing and printing alone (no pass) is
subtracted.
Linear work doubles with n; the test fails when the growth per doubling over
the last two doublings (the square root of the time at 8n over the time at
2n: one noisy size cannot decide alone) exceeds --max-ratio (3.3 by default:
a quadratic pass gives 4, a linear one 2 to 2.5 once caches and the
verifier's dominance trees grow) while the largest takes at least --floor
seconds (below that the times are noise). A shape that fails is measured once
more (a shared machine can stall one run; a quadratic pass fails twice), and
every time is printed either way.
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shapes import SHAPES  # noqa: E402


def timed(command, runs):
    """The least CPU time (user + system) of `runs` runs of `command`: CPU
    time, not wall time, so that other tests running beside this one (lit
    runs two at once) do not make a linear pass look quadratic, and the
    least because noise only ever adds time."""
    times = []
    for _ in range(runs):
        with tempfile.TemporaryFile() as errors:
            process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors)
            _, status, usage = os.wait4(process.pid, 0)
            process.returncode = os.waitstatus_to_exitcode(status)
            if process.returncode != 0:
                errors.seek(0)
                sys.exit(f"failed: {' '.join(command)}\n{errors.read().decode(errors='replace')[:2000]}")
        times.append(usage.ru_utime + usage.ru_stime)
    return min(times)


def measure(args, directory, name, attempt):
    """Times one shape at every size, prints the times, and says whether it
    grew faster than linearly."""
    generate, passes, sizes = SHAPES[name]
    pass_times = []
    for n in (max(1, int(size * args.scale)) for size in sizes):
        path = os.path.join(directory, f"{name}-{n}.mlir")
        with open(path, "w") as out:
            out.write(generate(n))
        output = os.path.join(directory, "out.mlir")
        base = timed([args.driver, path, "-o", output], args.runs)
        total = timed([args.driver, path, *passes, "-o", output], args.runs)
        pass_times.append((n, max(total - base, 1e-3), base))
    ratio = (pass_times[-1][1] / pass_times[-3][1]) ** 0.5
    line = ", ".join(f"n={n}: {t:.3f}s (+{b:.3f}s parse/print)" for n, t, b in pass_times)
    slow = ratio > args.max_ratio and pass_times[-1][1] >= args.floor
    verdict = "TOO SLOW" if slow else "ok" if pass_times[-1][1] >= args.floor else "ok (below the noise floor)"
    again = " (measured again)" if attempt > 1 else ""
    print(f"{name}{again}: {line}; x{ratio:.2f} per doubling over the last two {verdict}", flush=True)
    return slow


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("driver")
    parser.add_argument("--shape", action="append")
    parser.add_argument("--max-ratio", type=float, default=3.3)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every size")
    parser.add_argument(
        "--floor", type=float, default=0.5, help="pass times below this (seconds) are noise: growth is not judged"
    )
    args = parser.parse_args()
    failed = []
    with tempfile.TemporaryDirectory() as directory:
        for name in args.shape or SHAPES:
            for attempt in (1, 2):
                slow = measure(args, directory, name, attempt)
                if not slow:
                    break
            if slow:
                failed.append(name)
    if failed:
        sys.exit(f"grows faster than linearly: {', '.join(failed)}")


if __name__ == "__main__":
    main()
