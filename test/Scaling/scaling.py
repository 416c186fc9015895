"""Times ptxcc-opt on module shapes that doubled in size three times, and
fails when a pass grows faster than linearly.

  scaling.py PTXCC_OPT [--shape NAME]... [--max-ratio R]

For each shape (shapes.py), the module at each size is written to a
temporary file and ptxcc-opt runs the shape's passes on it (the median of a
few runs); the time of parsing and printing alone (no pass) is subtracted.
Linear work doubles with n; the test fails when the time of the largest size
over the second largest exceeds --max-ratio (3.0 by default: a quadratic pass
gives 4) while the largest takes at least --floor seconds (below that the
times are noise), and prints every time either way.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shapes import SHAPES  # noqa: E402


def timed(command, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        times.append(time.perf_counter() - start)
        if result.returncode != 0:
            sys.exit(f"failed: {' '.join(command)}\n{result.stderr[:2000]}")
    return sorted(times)[len(times) // 2]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("driver")
    parser.add_argument("--shape", action="append")
    parser.add_argument("--max-ratio", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every size")
    parser.add_argument(
        "--floor", type=float, default=0.5, help="pass times below this (seconds) are noise: growth is not judged"
    )
    args = parser.parse_args()
    failed = []
    with tempfile.TemporaryDirectory() as directory:
        for name in args.shape or SHAPES:
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
            ratio = pass_times[-1][1] / pass_times[-2][1]
            line = ", ".join(f"n={n}: {t:.3f}s (+{b:.3f}s parse/print)" for n, t, b in pass_times)
            slow = ratio > args.max_ratio and pass_times[-1][1] >= args.floor
            verdict = "TOO SLOW" if slow else "ok" if pass_times[-1][1] >= args.floor else "ok (below the noise floor)"
            print(f"{name}: {line}; last doubling x{ratio:.2f} {verdict}", flush=True)
            if slow:
                failed.append(name)
    if failed:
        sys.exit(f"grows faster than linearly: {', '.join(failed)}")


if __name__ == "__main__":
    main()
