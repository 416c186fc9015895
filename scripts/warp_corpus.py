#!/usr/bin/env python3
"""Public GPU code in the test suite: NVIDIA Warp's kernels through ptxcc.

Usage:
    scripts/warp_corpus.py ensure [--offline]   install warp-lang + numpy in the cache; print the folder
    scripts/warp_corpus.py generate [--sample]  CUDA C++ of every Warp module (or SAMPLE's) into the cache
    scripts/warp_corpus.py where                print the generated corpus, exit 1 if there is none
    scripts/warp_corpus.py run [--sample | --all | --module NAME...] [--opt 2 --opt 3] [--jobs J]

NVIDIA Warp (`warp-lang` on PyPI, Apache-2.0) is a Python framework whose
kernels it translates to CUDA C++ and hands to NVRTC. That translation runs
without a GPU: `generate` imports Warp's library (`warp.fem`, `sparse`,
`optim`, `render`, `utils`), its bundled examples (`examples/**/example_*.py`)
and tests (`tests/**/test_*.py`), resetting `wp.config` to its defaults
before each import (some change `enable_backward` globally), and writes the
`.cu` source NVRTC would get for every registered module (`output_arch` 90;
modules whose tile ops would link libmathdx's LTO-IR are generated again with
`enable_mathdx_gemm/solver/fft` off, Warp's own fallback). Their kernels take
`wp::array_t` and `wp::launch_bounds_t` structs by value (clang: `byval` on
every kernel); their device functions take `vec_t`/`mat_t`/`quat_t`/
`transform_t` by value.

`run` compiles each module with clang (no CUDA headers: Warp's `native/`
headers, libdevice linked as builtin bitcode, NVRTC's
`--device-as-default-execution-space` as `force_cuda_host_device`, CUDA's
`__align__` and `__cluster_dims__` spelled as clang attributes) at each
`--opt` level for sm_90, and requires of every module:

- `ptxcc-opt X.ll --ptxcc-pipeline='chip=sm_90 ptx=80' --emit=ptx` succeeds
  (with PTXCC_FALLBACK=error, and no "please report" warning on stderr);
- ptxas accepts its PTX with no error or warning that llc's own PTX of the
  same IR (`llc -mcpu=sm_90 -mattr=+ptx80`) does not get;
- per function (`ptxas -v`, whole-program where llc's PTX declares nothing
  `.extern`, else `-c`, the same for both; a function ptxcc split into
  clone + wrapper compared by its clone) stack frame + spill bytes no more
  than llc alone's;
- the differential-execution harness (test/harness/diffexec.py) finds each
  kernel the same before and after ptxcc on the host. A kernel that reaches
  code the host cannot run (inline PTX assembly: libdevice's sin/cos range
  reduction, Warp's f16 conversions and `trap`; NVVM intrinsics the
  harness's runtime lacks; `extern` variables) is left out of the module
  the harness gets (llvm-extract --delete, then globaldce) and counted
  `unsupported`, as is every kernel of a module the host cannot run at all;
  `reference invalid` (the input itself faults or hangs on the harness's
  inputs) is counted too. Neither is a failure.

A module clang cannot compile (a few need CUDA's headers: atomics on
unsigned and 64-bit integers, `__shfl_up_sync`, `clock64`, a `__shared__`
variable with a constructor) or whose IR llc itself rejects is counted and
skipped. The summary gives modules, kernels,
kernels taking a struct by value, every kind of failure, the diffexec
verdicts, and ptxas's totals over all functions (stack, spills, kernel
registers), llc alone vs ptxcc. It also counts (and `--verbose` lists) the
kernels ptxcc gives more registers than llc alone without less stack +
spills in their call tree, each with its registers in ptxas's other mode
(`-c` for a whole program, whole-program for `-c`): where ptxcc takes no
more there, the difference is ptxas's allocation of the same code, not a
rule of ptxcc's. Neither is a failure. Exit status 1 on any failure.

`--sample` is a fixed set of modules (SAMPLE, the lit test's,
test/realworld/warp-sample.test; `generate --sample` imports only their
files, in seconds, when the full corpus is not there), `--all` every module
(`cargo xtask realworld`). clang's IR is cached per module and -O level (keyed by the
recipe and clang's version), so a rerun compiles nothing again; the work of
each module (PTX, logs, reproducers) stays in `--out` where it failed. One
run at a time may use an `--out` (a second one exits 2).

The cache is scripts/nvidia_tools.py's (`$PTXCC_CACHE`, else
`$XDG_CACHE_HOME/ptxcc`, else `~/.cache/ptxcc`): `warp-VERSION/` holds the
packages (`python3.X/`, installed with `pip --require-hashes` from the wheels
pinned in WHEELS) and the generated corpus (`cuda/`: one `.cu` per module,
`index.json`, a copy of Warp's `native/` headers, so `run` needs neither the
packages nor that Python). Each is marked complete by a stamp file written
last. With a warm cache no network is used; when PyPI cannot be reached
`ensure` says so on stderr and exits 2 (lit's `warp` feature is then missing:
the test is UNSUPPORTED).
"""

import argparse
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Optional

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "test", "harness"))
from nvidia_tools import STAMP, cache_dir, find_tools  # noqa: E402

# The Warp release the figures in docs/guide/measurements.md were measured with.
VERSION = "1.19.0"

# (requirement, sha256 of each wheel pip may pick): Warp is one wheel for
# every Python (py3-none-manylinux_2_28_x86_64); numpy has one per CPython
# version, 3.10 to 3.13.
WHEELS = [
    ("warp-lang==1.19.0", ["c797f5f4aa9925f676e20dd28e5416fee794499f3f3c0a5b66f2d4dfc2de9e32"]),
    ("numpy==2.2.6", [
        "fc7b73d02efb0e18c000e9ad8b83480dfcd5dfd11065997ed4c6747470ae8915",  # cp310
        "ba10f8411898fc418a521833e014a77d3ca01c15b0c6cdcce6a0d2897e6dbbdf",  # cp311
        "fd83c01228a688733f1ded5201c678f0c53ecc1006ffbc404db9f7a899ac6249",  # cp312
        "1bc23a79bfabc5d056d106f9befb8d50c31ced2fbc70eedb8155aec74a45798f",  # cp313
    ]),
]

LLVM_BIN = os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin")
CHIP = "sm_90"
PTX = 80
PIPELINE = f"--ptxcc-pipeline=chip={CHIP} ptx={PTX}"
# What the engineer's internal-error fallback prints (besides failing under
# PTXCC_FALLBACK=error): a warning that asks for a report.
FALLBACK_WARNING = re.compile(r"warning:.*please report", re.I)

# The library packages the corpus imports besides examples and tests.
LIBRARY = ["warp.fem", "warp.sparse", "warp.optim", "warp.render", "warp.utils"]

# The lit test's modules (`run --sample`): by-value shapes ptxcc acts on,
# small enough to run in about three minutes on two cores.
SAMPLE = [
    "warp.examples.core.example_raymarch",
    "warp.examples.core.example_wave",
    "warp.tests.test_array_subclass",
    "warp.tests.test_func",
    "warp.tests.test_launch",
    "warp.tests.test_spatial_assign_copy",
]


def root():
    """This Warp version's folder in the cache."""
    return os.path.join(cache_dir(), f"warp-{VERSION}")


def site_dir():
    """Where this Python's packages are installed."""
    return os.path.join(root(), f"python{sys.version_info.major}.{sys.version_info.minor}")


def corpus_dir():
    """The generated CUDA sources."""
    return os.path.join(root(), "cuda")


def complete(folder):
    return os.path.exists(os.path.join(folder, STAMP))


# ---------------------------------------------------------------- ensure


def ensure(offline=False):
    """Installs warp-lang and numpy for this Python if missing; returns the
    folder (for PYTHONPATH) or None."""
    site = site_dir()
    if complete(site):
        return site
    if offline:
        print(f"warp_corpus: no Warp in {site}, and --offline", file=sys.stderr)
        return None
    os.makedirs(root(), exist_ok=True)
    with tempfile.TemporaryDirectory(dir=root(), prefix="install.") as tmp:
        requirements = os.path.join(tmp, "requirements.txt")
        with open(requirements, "w") as f:
            for requirement, digests in WHEELS:
                f.write(requirement + "".join(f" --hash=sha256:{digest}" for digest in digests) + "\n")
        target = os.path.join(tmp, "site")
        command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--only-binary=:all:",
                   "--require-hashes", "--no-compile", "--disable-pip-version-check", "--target", target,
                   "-r", requirements, "--timeout", "30", "--retries", "2"]
        print(f"warp_corpus: installing warp-lang {VERSION} from PyPI into {site}", file=sys.stderr)
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            last = (result.stderr.strip().splitlines() or ["pip failed"])[-1]
            print(f"warp_corpus: cannot install Warp from PyPI (is it reachable?): {last}", file=sys.stderr)
            return None
        with open(os.path.join(target, STAMP), "w") as f:
            f.write("".join(f"{requirement}\n" for requirement, _ in WHEELS))
        shutil.rmtree(site, ignore_errors=True)
        os.replace(target, site)
    return site


# -------------------------------------------------------------- generate

# A kernel's signature in Warp's CUDA: `extern "C" __global__ void NAME(`
# (`WP_CLUSTER_DIMS(...)` may come before `__global__`), its parameters one
# a line, up to `)`.
KERNEL = re.compile(r'^extern "C" [^\n]*?__global__ void (\w+)\(\n(.*?)\)', re.M | re.S)
# A device function's: `static CUDA_CALLABLE RET NAME(` ... `)`.
DEVICE_FUNCTION = re.compile(r"^static CUDA_CALLABLE(?:_DEVICE)? [^\n(]*?\b(\w+)\(\n?(.*?)\)\s*\{", re.M | re.S)
# A parameter that is a struct passed by value: `wp::T<...> name` or a
# user struct (`Name_hash name`), without `&` or `*`.
STRUCT_PARAMETER = re.compile(r"^\s*((?:wp::)?\w+(?:<.*>)?)\s+\w+\s*,?\s*$")
SCALARS = {"int", "bool", "float", "double", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
           "uint64", "float16", "float32", "float64", "half", "unsigned", "char", "size_t", "void"}
# Warp's vector, matrix, quaternion and transform types.
MATH = re.compile(r"^wp::(vec_t|mat_t|quat_t|transform_t|vec\d\w*|mat\d\w*|quat\w*|transform\w*|spatial_\w+)\b")


def struct_parameters(parameters):
    """The types of the by-value struct parameters of a parameter list."""
    found = []
    for line in parameters.split("\n"):
        match = STRUCT_PARAMETER.match(line)
        if not match:
            continue
        kind = match.group(1)
        if kind.removeprefix("wp::") in SCALARS:
            continue
        found.append(kind)
    return found


def count_source(source):
    """Figures of one module's CUDA: kernels; kernels taking a struct by
    value (launch bounds included: every kernel); kernels taking one besides
    `launch_bounds_t` (arrays, vectors, user structs); Warp's device
    functions (`@wp.func` and their adjoints), those taking a struct by value
    and those taking a vector/matrix/quaternion/transform by value."""
    kernels = struct_kernels = data_kernels = 0
    for _, parameters in KERNEL.findall(source):
        kinds = struct_parameters(parameters)
        kernels += 1
        struct_kernels += bool(kinds)
        data_kernels += any(not kind.startswith("wp::launch_bounds_t") for kind in kinds)
    functions = struct_functions = math_functions = 0
    for _, parameters in DEVICE_FUNCTION.findall(source):
        kinds = struct_parameters(parameters)
        functions += 1
        struct_functions += bool(kinds)
        math_functions += any(MATH.match(kind) for kind in kinds)
    return {"kernels": kernels, "struct_kernels": struct_kernels, "data_kernels": data_kernels,
            "device_functions": functions, "struct_functions": struct_functions, "math_functions": math_functions}


def codegen_child(out, imports=None):
    """Runs inside the Python that has Warp: imports the corpus (or only
    `imports`) and writes each module's CUDA into `out`, with
    `out/generated.json`."""
    import glob
    import importlib
    import io
    import contextlib

    import warp as wp

    with contextlib.redirect_stdout(io.StringIO()):
        wp.init()
    package = os.path.dirname(wp.__file__)
    config = wp.config
    defaults = {name: getattr(config, name) for name in dir(config)
                if not name.startswith("_") and not callable(getattr(config, name))
                and not isinstance(getattr(config, name), type(os))}

    def reset():
        for name, value in defaults.items():
            setattr(config, name, value)

    names = list(LIBRARY)
    for pattern in ("examples/**/example_*.py", "tests/**/test_*.py"):
        for path in sorted(glob.glob(os.path.join(package, pattern), recursive=True)):
            relative = os.path.relpath(path, os.path.dirname(package))
            names.append(relative[:-3].replace(os.sep, "."))
    if imports:
        names = imports
    import_failures = {}
    for name in names:
        reset()
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                importlib.import_module(name)
        except BaseException as error:  # noqa: B036 (a test module may call sys.exit)
            import_failures[name] = f"{type(error).__name__}: {error}".splitlines()[0][:300]
    reset()
    from warp._src.context import user_modules

    modules = {}
    codegen_failures = {}
    for name in sorted(user_modules):
        if imports and name not in imports:
            continue
        module = user_modules[name]
        if not module._get_live_kernels():
            continue
        fallback = False
        try:
            options = module.resolve_options(config) | {"output_arch": 90}
            source, _, _, ltoirs, fatbins = module._run_codegen(options, False)
            if ltoirs or fatbins or "mathdx" in source.lower():
                fallback = True
                options |= {"enable_mathdx_gemm": False, "enable_mathdx_solver": False, "enable_mathdx_fft": False}
                source, _, _, ltoirs, fatbins = module._run_codegen(options, False)
                if ltoirs or fatbins:
                    raise RuntimeError("links LTO-IR even without libmathdx")
        except Exception as error:
            if not fallback:
                # libmathdx may fail outright without a GPU: Warp's fallback.
                try:
                    fallback = True
                    options = module.resolve_options(config) | {
                        "output_arch": 90, "enable_mathdx_gemm": False, "enable_mathdx_solver": False,
                        "enable_mathdx_fft": False}
                    source, _, _, ltoirs, fatbins = module._run_codegen(options, False)
                    error = None if not (ltoirs or fatbins) else RuntimeError("links LTO-IR")
                except Exception as again:
                    error = again
            if error is not None:
                codegen_failures[name] = f"{type(error).__name__}: {error}".splitlines()[0][:300]
                continue
        file = re.sub(r"[^\w.]", "_", name) + ".cu"
        with open(os.path.join(out, file), "w") as f:
            f.write(source)
        modules[name] = {"file": file, "mathdx_fallback": fallback, **count_source(source)}
    with open(os.path.join(out, "generated.json"), "w") as f:
        json.dump({"modules": modules, "import_failures": import_failures, "codegen_failures": codegen_failures},
                  f, indent=1, sort_keys=True)
    return 0


def import_names(modules):
    """The Python modules to import to register `modules` (Warp module
    names; a module defined by a Python file is named after it)."""
    return sorted(set(modules))


def generate(offline=False, sample=False):
    """Generates the corpus into the cache if missing (the full one, or with
    `sample` only SAMPLE's modules when the full one is not there); returns
    its folder or None."""
    full = corpus_dir()
    if complete(full):
        return full
    folder = full if not sample else sample_dir()
    if complete(folder):
        return folder
    site = ensure(offline)
    if site is None:
        return None
    os.makedirs(root(), exist_ok=True)
    what = "SAMPLE's modules" if sample else "every module"
    print(f"warp_corpus: generating the CUDA of {what} of Warp {VERSION} into {folder}", file=sys.stderr)
    start = time.time()
    with tempfile.TemporaryDirectory(dir=root(), prefix="generate.") as tmp:
        out = os.path.join(tmp, "cuda")
        os.makedirs(out)
        env = dict(os.environ, PYTHONPATH=site, WARP_CACHE_PATH=os.path.join(tmp, "kernel-cache"))
        command = [sys.executable, os.path.abspath(__file__), "_codegen", out]
        if sample:
            command += ["--import", *import_names(SAMPLE)]
        with open(os.path.join(out, "generate.log"), "w") as log:
            result = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        if result.returncode != 0:
            with open(os.path.join(out, "generate.log")) as log:
                print(f"warp_corpus: generating failed:\n{log.read()[-4000:]}", file=sys.stderr)
            return None
        with open(os.path.join(out, "generated.json")) as f:
            index = json.load(f)
        index["warp"] = VERSION
        index["seconds"] = round(time.time() - start, 1)
        with open(os.path.join(out, "index.json"), "w") as f:
            json.dump(index, f, indent=1, sort_keys=True)
        os.remove(os.path.join(out, "generated.json"))
        # Warp's headers and libdevice, so that `run` needs only this folder.
        import_site = os.path.join(site, "warp", "native")
        shutil.copytree(import_site, os.path.join(out, "native"),
                        ignore=shutil.ignore_patterns("*.cpp", "*.cu"))
        with open(os.path.join(out, STAMP), "w") as f:
            f.write(f"warp-lang=={VERSION}\n")
        shutil.rmtree(folder, ignore_errors=True)
        os.replace(out, folder)
    modules = index["modules"]
    print(f"warp_corpus: {len(modules)} modules, {sum(m['kernels'] for m in modules.values())} kernels "
          f"({time.time() - start:.0f} s)", file=sys.stderr)
    return folder


def sample_dir():
    """The corpus of SAMPLE's modules alone (what `cargo xtask test` needs)."""
    return os.path.join(root(), "cuda-sample")


def find_corpus(sample=False):
    """The generated corpus (the full one; with `sample`, SAMPLE's own when
    the full one is missing), or None."""
    for folder in (corpus_dir(), sample_dir()) if sample else (corpus_dir(),):
        if complete(folder):
            return folder
    return None


# ------------------------------------------------------------------- run

# clang's recipe (DESIGN.md, "Facts verified 2026-11-27"): Warp's headers,
# no CUDA headers, libdevice as builtin bitcode, every unannotated function
# a host-device one (NVRTC's --device-as-default-execution-space), and the
# two attribute macros of CUDA's host_defines.h that Warp's code uses and
# its cuda_crt.h lacks (`__align__` for `__constant__` structs,
# `__cluster_dims__` for thread-block clusters).
CLANG_FLAGS = ["-x", "cuda", "--cuda-device-only", f"--cuda-gpu-arch={CHIP}", "-nocudainc", "-nocudalib",
               "-D__CUDACC__", "-Xclang", "-target-feature", "-Xclang", f"+ptx{PTX}", "-std=c++17", "-DNDEBUG",
               "-DWP_ENABLE_MATHDX=0", "-w", "-S", "-emit-llvm"]
PRELUDE = """#pragma clang force_cuda_host_device begin
#define __align__(n) __attribute__((aligned(n)))
#define __cluster_dims__(...) __attribute__((cluster_dims(__VA_ARGS__)))
"""
LLC = [os.path.join(LLVM_BIN, "llc"), "-mtriple=nvptx64-nvidia-cuda", f"-mcpu={CHIP}", f"-mattr=+ptx{PTX}"]
TIMEOUT = 1200
# diffexec's error when the input (not ptxcc's output) does not build for
# the host.
REFERENCE_UNBUILT = re.compile(r"^(hostify|compiling the host module of) \S*/reference\.ll failed")
# A call of inline assembly in LLVM IR.
INLINE_ASM = re.compile(r'\basm (?:sideeffect )?(?:alignstack )?(?:inteldialect )?"')


def clang_command(native, prelude, source, opt, output):
    libdevice = os.path.join(native, "libdevice", "libdevice.10.bc")
    return [os.path.join(LLVM_BIN, "clang"), *CLANG_FLAGS, "-Xclang", "-mlink-builtin-bitcode", "-Xclang", libdevice,
            f"-I{native}", "-include", prelude, f"-O{opt}", source, "-o", output]


def ll_cache(corpus):
    """Where clang's IR of the corpus is kept: in the corpus, keyed by the
    recipe and clang's version."""
    version = subprocess.run([os.path.join(LLVM_BIN, "clang"), "--version"], capture_output=True,
                             text=True).stdout
    key = hashlib.sha256("\n".join([VERSION, version, PRELUDE, *CLANG_FLAGS]).encode()).hexdigest()[:12]
    folder = os.path.join(corpus, f"ll-{key}")
    os.makedirs(folder, exist_ok=True)
    prelude = os.path.join(folder, "prelude.h")
    if not os.path.exists(prelude):
        with open(prelude + ".tmp", "w") as f:
            f.write(PRELUDE)
        os.replace(prelude + ".tmp", prelude)
    return folder


def compile_cached(corpus, cache, file, opt):
    """clang's IR of one module at -O`opt`: (path, None), or (None, clang's
    error), both kept in the cache."""
    stem = os.path.join(cache, f"{file[:-3]}-O{opt}")
    if os.path.exists(stem + ".ll"):
        return stem + ".ll", None
    if os.path.exists(stem + ".err"):
        with open(stem + ".err") as f:
            return None, f.read()
    tmp = f"{stem}.{os.getpid()}.tmp"
    command = clang_command(os.path.join(corpus, "native"), os.path.join(cache, "prelude.h"),
                            os.path.join(corpus, file), opt, tmp)
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        errors = [line for line in result.stderr.splitlines() if "error:" in line]
        with open(stem + ".err", "w") as f:
            f.write("\n".join(errors[:5]) or result.stderr[-2000:])
        if os.path.exists(tmp):
            os.remove(tmp)
        return None, "\n".join(errors[:5])
    os.replace(tmp, stem + ".ll")
    return stem + ".ll", None


@dataclass
class Totals:
    """ptxas's figures summed over functions."""

    stack: int = 0
    spills: int = 0
    registers: int = 0

    def add(self, figures):
        self.stack += figures.stack
        self.spills += figures.spills
        self.registers += figures.registers or 0

    def __iadd__(self, other):
        self.stack += other.stack
        self.spills += other.spills
        self.registers += other.registers
        return self


@dataclass
class Outcome:
    """What happened to one module at one -O level."""

    module: str
    opt: int
    kernels: int
    # clang or llc could not compile it (not ptxcc's doing): why.
    skipped: str = ""
    skipped_by: str = ""
    # ptxcc's failures, each a line.
    pipeline: list = field(default_factory=list)
    ptxas: list = field(default_factory=list)
    worse: list = field(default_factory=list)
    diffexec: list = field(default_factory=list)
    # Kernels given more registers than llc gives them without less stack +
    # spills in their call tree (sass.Figures.tree: with `-c` a kernel's
    # callees have frames of their own) (not a failure: information for
    # issue 41), each a line.
    registers: list = field(default_factory=list)
    # How many of those take no more registers than llc alone in ptxas's
    # other mode (`-c` for a whole program and the reverse): ptxas's
    # allocation of the same code, not a rule of ptxcc's.
    registers_other_mode_equal: int = 0
    verdicts: dict = field(default_factory=dict)
    functions: int = 0
    llc: Totals = field(default_factory=Totals)
    ptxcc: Totals = field(default_factory=Totals)
    # ptxas rejects llc's own PTX (LLVM's problem): the message.
    llc_rejected: str = ""
    seconds: float = 0.0

    @property
    def failed(self):
        return bool(self.pipeline or self.ptxas or self.worse or self.diffexec)


def run_tool(command, env=None, timeout=TIMEOUT):
    """(exit status, stderr) of a command; status -1 after the timeout."""
    try:
        result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, f"no result after {timeout} s"
    return result.returncode, result.stderr


def fallback_warnings(stderr):
    return [line for line in stderr.splitlines() if FALLBACK_WARNING.search(line)]


def check_module(task):
    """Runs one module at one -O level through every check; returns an
    Outcome (its work folder is removed unless something failed or --keep)."""
    from sass import assemble, counterpart, whole_program, without_clones

    corpus, cache, name, entry, opt, args, tools = task
    outcome = Outcome(name, opt, entry["kernels"])
    start = time.time()
    ll, error = compile_cached(corpus, cache, entry["file"], opt)
    if ll is None:
        outcome.skipped, outcome.skipped_by = error.strip().splitlines()[0] if error.strip() else "failed", "clang"
        outcome.seconds = time.time() - start
        return outcome
    work = os.path.join(args.out, f"{entry['file'][:-3]}-O{opt}")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = dict(os.environ, PTXCC_FALLBACK="error")
    ptxcc_ptx = os.path.join(work, "ptxcc.ptx")
    llc_ptx = os.path.join(work, "llc.ptx")
    status, stderr = run_tool([args.ptxcc_opt, ll, PIPELINE, "--emit=ptx", "-o", ptxcc_ptx], env)
    if status != 0:
        last = [line for line in stderr.splitlines() if line.strip()]
        outcome.pipeline.append(f"ptxcc-opt exit status {status}: {(last or [''])[0][:300]}")
    outcome.pipeline += [f"ptxcc-opt: {line[:300]}" for line in fallback_warnings(stderr)]
    status, stderr = run_tool([*LLC, ll, "-o", llc_ptx])
    if status != 0:
        outcome.skipped, outcome.skipped_by = (stderr.strip().splitlines() or ["failed"])[0][:300], "llc"
    elif not outcome.pipeline:
        with open(llc_ptx) as f:
            reference = f.read()
        with open(ptxcc_ptx) as f:
            ours = f.read()
        whole = whole_program(reference)
        base = assemble(reference, tools, whole, sass=False)
        new = assemble(ours, tools, whole, sass=False)
        if not base.ok:
            outcome.llc_rejected = "; ".join(m for k, m in base.diagnostics if k != "warning")[:300] or "failed"
        extra = without_clones(new.diagnostics) - without_clones(base.diagnostics)
        outcome.ptxas += [f"ptxas {kind} on ptxcc's PTX only: {message}" for kind, message in sorted(extra)]
        if not new.ok and base.ok and not extra:
            outcome.ptxas.append(f"ptxas failed on ptxcc's PTX: {new.log.strip()[-300:]}")
        if base.ok and new.ok:
            # ptxas's other mode, assembled only for modules with a kernel to
            # report below: (llc's, ptxcc's) functions, or None.
            other = None
            for function, figures in sorted(base.functions.items()):
                mine = counterpart(new.functions, function)
                if mine is None:
                    if figures.kernel:
                        outcome.ptxas.append(f"kernel {function} missing from ptxcc's PTX")
                    continue
                outcome.functions += 1
                outcome.llc.add(figures)
                outcome.ptxcc.add(mine)
                if mine.stack + mine.spills > figures.stack + figures.spills:
                    outcome.worse.append(f"{function}: stack + spills {figures.stack} + {figures.spills} -> "
                                         f"{mine.stack} + {mine.spills} bytes")
                elif figures.kernel and (mine.registers or 0) > (figures.registers or 0) \
                        and mine.tree >= figures.tree:
                    if other is None:
                        other = other_mode(reference, ours, tools, whole)
                    suffix, equal = other_registers(other, function, whole)
                    outcome.registers_other_mode_equal += equal
                    outcome.registers.append(f"{name}: {function}: registers {figures.registers} -> "
                                             f"{mine.registers}, stack + spills {figures.stack + figures.spills}"
                                             f" -> {mine.stack + mine.spills}, with its callees "
                                             f"{figures.tree} -> {mine.tree}{suffix}")
    if not args.no_diffexec and not outcome.pipeline and not outcome.skipped:
        diffexec(ll, work, args, outcome, env)
    outcome.seconds = time.time() - start
    if not outcome.failed and not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return outcome


def other_mode(reference, ours, tools, whole):
    """llc's and ptxcc's functions assembled in the ptxas mode the check did
    not use (`-c` for a whole program, whole-program for `-c`), or () when
    ptxas cannot assemble them that way (an `.extern` it cannot resolve)."""
    from sass import assemble
    base = assemble(reference, tools, not whole, sass=False)
    new = assemble(ours, tools, not whole, sass=False)
    return (base.functions, new.functions) if base.ok and new.ok else ()


def other_registers(other, function, whole):
    """The registers of a flagged kernel in ptxas's other mode, llc alone ->
    ptxcc, as a suffix of its line (" (other mode, -c: 40 -> 40)"), and
    whether ptxcc takes no more there (then the flag is ptxas's allocation
    of the same code, not a rule of ptxcc's: docs/guide/measurements.md)."""
    from sass import counterpart
    if not other:
        return "", False
    base, new = other
    figures, mine = base.get(function), counterpart(new, function)
    if figures is None or mine is None:
        return "", False
    mode = "whole program" if not whole else "-c"
    equal = (mine.registers or 0) <= (figures.registers or 0)
    return f" (other mode, {mode}: {figures.registers} -> {mine.registers})", equal


def check_safely(task):
    """check_module, with an exception of this script's own reported as the
    module's failure instead of ending the run."""
    try:
        return check_module(task)
    except Exception as error:  # noqa: BLE001
        _, _, name, entry, opt, _, _ = task
        outcome = Outcome(name, opt, entry["kernels"])
        outcome.pipeline.append(f"warp_corpus.py: {type(error).__name__}: {error}"[:400])
        return outcome


# LLVM IR text: a function definition's first line, a global symbol named
# in a body, a declared (external) global variable.
DEFINE = re.compile(r"^define [^@]*@(\"[^\"]+\"|[\w.$]+)\(", re.M)
SYMBOL = re.compile(r"@(\"[^\"]+\"|[\w.$]+)")
EXTERNAL_VARIABLE = re.compile(r"^@(\"[^\"]+\"|[\w.$]+) = external [^\n]*\bglobal\b", re.M)


@dataclass
class Function:
    """One function of an LLVM IR module, as diffexec's host needs it."""

    kernel: bool
    # The global symbols its body names.
    symbols: set
    # Why the host cannot run its own body, or "".
    why: str = ""


def functions_of(text, host_intrinsics):
    """{name: Function} of the module's definitions."""
    external = set(EXTERNAL_VARIABLE.findall(text))
    functions = {}
    starts = [match for match in DEFINE.finditer(text)]
    for match in starts:
        end = text.find("\n}\n", match.end())
        body = text[match.end():end if end >= 0 else len(text)]
        header = text[match.start():match.end()]
        symbols = set(SYMBOL.findall(body))
        why = ""
        if INLINE_ASM.search(body):
            why = "inline PTX assembly"
        else:
            missing = sorted(name for name in symbols if name.startswith("llvm.nvvm.")
                             and "__nvvm_" + name[len("llvm.nvvm."):].replace(".", "_") not in host_intrinsics)
            if missing:
                why = f"no host version of {missing[0]}"
            elif symbols & external:
                why = f"the external variable @{sorted(symbols & external)[0]}"
        functions[match.group(1)] = Function("ptx_kernel" in header, symbols, why)
    return functions


def unhostable(functions):
    """{function: why} for the functions (kernels or not) that reach code
    the host cannot run."""
    memo = {}

    def why(name, seen):
        if name in memo:
            return memo[name]
        if name in seen or name not in functions:
            return ""
        seen.add(name)
        function = functions[name]
        found = function.why or next((w for callee in sorted(function.symbols) if (w := why(callee, seen))), "")
        memo[name] = found
        return found

    found = {}
    for name in functions:
        reason = why(name, set())
        if reason:
            found[name] = reason
    return found


def host_intrinsics(runtime):
    """The `__nvvm_*` functions the harness's runtime defines."""
    result = subprocess.run([os.path.join(LLVM_BIN, "llvm-nm"), "--defined-only", "--format=just-symbols", runtime],
                            capture_output=True, text=True)
    return {name for name in result.stdout.split() if name.startswith("__nvvm_")}


def hostable_part(ll, work, outcome):
    """The IR diffexec runs: `ll` without the kernels that reach code the
    host cannot run (inline PTX assembly: libdevice's sin/cos range
    reduction, f16 conversions, `trap`, texture reads, shuffles; NVVM
    intrinsics the runtime lacks; `extern` variables), each counted as
    unsupported in `outcome`. None when no kernel is left."""
    import diffexec as harness

    with open(ll) as f:
        text = f.read()
    _, runtime = harness.build_tools()
    functions = functions_of(text, host_intrinsics(runtime))
    # Every function that reaches such code goes (device functions too: a
    # weak_odr one no kernel left calls stays in the module otherwise).
    dropped = unhostable(functions)
    kernels = [name for name in dropped if functions[name].kernel]
    for kernel in kernels:
        count("unsupported", outcome, dropped[kernel])
    if not dropped:
        return ll
    if len(kernels) == sum(1 for function in functions.values() if function.kernel):
        return None
    part = os.path.join(work, "hostable.ll")
    names = sorted(dropped)
    status, stderr = run_tool([os.path.join(LLVM_BIN, "llvm-extract"), "--delete", "-S", ll, "-o", part + ".tmp",
                               *(f"--func={name.strip(chr(34))}" for name in names)])
    if status == 0:
        status, stderr = run_tool([os.path.join(LLVM_BIN, "opt"), "-passes=globaldce", "-S", part + ".tmp",
                                   "-o", part])
    if status != 0:
        raise RuntimeError(f"cannot drop the unhostable kernels: {stderr.strip()[-300:]}")
    return part


def count(kind, outcome, why=""):
    """One more `kind` verdict in `outcome` (the first few reasons kept)."""
    outcome.verdicts[kind] = outcome.verdicts.get(kind, 0) + 1
    if why:
        reasons = outcome.verdicts.setdefault("unsupported why", {})
        reasons[why] = reasons.get(why, 0) + 1


def diffexec(ll, work, args, outcome, env):
    """Each kernel of the module the host can run, before and after ptxcc
    (test/harness/diffexec.py), verdicts counted into `outcome`."""
    import diffexec as harness

    part = hostable_part(ll, work, outcome)
    if part is None:
        return
    mlir = os.path.join(work, "input.mlir")
    status, stderr = run_tool([args.ptxcc_opt, part, "-o", mlir], env)
    if status != 0:
        outcome.pipeline.append(f"ptxcc-opt (import) exit status {status}: {stderr.strip()[:300]}")
        return
    harness.RUN_TIMEOUT = args.run_timeout
    try:
        ref_ll, out_ll = harness.through_ptxcc(mlir, work, args.ptxcc_opt, [PIPELINE])
        verdicts = harness.compare_modules(ref_ll, out_ll, work, range(1, args.seeds + 1))
    except harness.ToolError as error:
        message = str(error)
        if REFERENCE_UNBUILT.search(message):
            # The input itself does not build for the host.
            for _ in range(outcome.kernels - sum(v for k, v in outcome.verdicts.items() if k != "unsupported why")):
                count("unsupported", outcome, f"host build: {message.splitlines()[0][:150]}")
            return
        outcome.diffexec.append(f"diffexec: {message[:400]}")
        return
    for verdict in verdicts:
        if verdict.kind == "differs" and nondeterministic(verdict, work, harness):
            verdict.kind = "reference nondeterministic"
        if verdict.kernel == "(module)" and verdict.kind == "unsupported":
            # Every kernel left: the host cannot run the module.
            for _ in range(outcome.kernels - sum(v for k, v in outcome.verdicts.items() if k != "unsupported why")):
                count("unsupported", outcome, verdict.detail[:150])
            continue
        count(verdict.kind, outcome)
        if verdict.kind in harness.FAILING:
            outcome.diffexec.append(str(verdict)[:400])


DIFFERENCE = re.compile(r"^seed (\d+): (.+), byte \d+:")


def nondeterministic(verdict, work, harness):
    """Whether the bytes a `differs` verdict names change between runs of
    the reference itself on the same seed and fill: the input's result
    then depends on where the loader put things (a call log that hashes a
    string's address, which address-space layout randomization moves), and
    there is nothing to compare. The harness compares two fills, and such
    bytes agree across them one time in 256."""
    match = DIFFERENCE.match(verdict.detail)
    if not match:
        return False
    seed, label = int(match.group(1)), match.group(2)
    exe = os.path.join(work, "reference.exe")
    names = [name for name, _ in harness.kernels(exe)]
    if verdict.kernel not in names:
        return False
    index = names.index(verdict.kernel)
    seen = set()
    for _ in range(4):
        result = harness.run(exe, index, seed, harness.FILLS[0], 2, 8)
        if result.status != 0:
            return False
        seen.add(result.dumps.get(label))
    return len(seen) > 1


def as_json(outcome):
    return outcome.__dict__ | {"llc": outcome.llc.__dict__, "ptxcc": outcome.ptxcc.__dict__}


def from_json(data):
    return Outcome(**(data | {"llc": Totals(**data["llc"]), "ptxcc": Totals(**data["ptxcc"])}))


def select(index, args):
    """The (name, entry) of the modules to run, in name order."""
    modules = index["modules"]
    if args.module:
        missing = [name for name in args.module if name not in modules]
        if missing:
            raise SystemExit(f"warp_corpus: no module {', '.join(missing)} in the corpus")
        names = args.module
    elif args.all:
        names = sorted(modules)
    else:
        names = [name for name in SAMPLE if name in modules]
        if len(names) != len(SAMPLE):
            raise SystemExit(f"warp_corpus: the corpus lacks sample modules "
                             f"{sorted(set(SAMPLE) - set(names))}")
    return [(name, modules[name]) for name in names]


def print_summary(index, outcomes, selected, opts, seconds, verbose=False):
    """The figures, then one line per kind of failure; returns the number
    of failures."""
    kernels = sum(entry["kernels"] for _, entry in selected)
    struct = sum(entry["struct_kernels"] for _, entry in selected)
    data = sum(entry["data_kernels"] for _, entry in selected)
    functions = sum(entry["device_functions"] for _, entry in selected)
    struct_functions = sum(entry["struct_functions"] for _, entry in selected)
    math = sum(entry["math_functions"] for _, entry in selected)
    print(f"warp: Warp {VERSION}: {len(selected)} modules, {kernels} kernels, {struct} taking a struct by value "
          f"({data} besides launch_bounds_t: arrays, vectors, structs); {functions} device functions, "
          f"{struct_functions} taking a struct by value ({math} a vector/matrix/quaternion/transform)")
    failures = 0
    for opt in opts:
        mine = [o for o in outcomes if o.opt == opt]
        skipped = [o for o in mine if o.skipped]
        ran = [o for o in mine if not o.skipped]
        clang = [o for o in skipped if o.skipped_by == "clang"]
        llc = [o for o in skipped if o.skipped_by == "llc"]
        print(f"warp -O{opt}: {len(ran)} modules ({sum(o.kernels for o in ran)} kernels) checked; "
              f"clang cannot compile {len(clang)} ({sum(o.kernels for o in clang)} kernels), "
              f"llc cannot compile {len(llc)}")
        pipeline = [o for o in mine if o.pipeline]
        ptxas = [o for o in mine if o.ptxas]
        worse = sum(len(o.worse) for o in mine)
        diff = sum(len(o.diffexec) for o in mine)
        rejected = [o for o in mine if o.llc_rejected]
        print(f"warp -O{opt}: pipeline failures {len(pipeline)} modules ({sum(o.kernels for o in pipeline)} "
              f"kernels); ptxas failures {len(ptxas)} modules; ptxas rejects llc's own PTX in {len(rejected)}; "
              f"{sum(o.functions for o in mine)} functions compared, worse than llc {worse}")
        verdicts, reasons = {}, {}
        for o in mine:
            for kind, number in o.verdicts.items():
                if kind != "unsupported why":
                    verdicts[kind] = verdicts.get(kind, 0) + number
            for why, number in o.verdicts.get("unsupported why", {}).items():
                why = re.sub(r"@\S+", "@...", why) if why.startswith("the external") else why
                reasons[why] = reasons.get(why, 0) + number
        kinds = ", ".join(f"{number} {kind}" for kind, number in sorted(verdicts.items())) or "none run"
        print(f"warp -O{opt}: diffexec: {kinds}; {diff} failing")
        if reasons and verbose:
            top = sorted(reasons.items(), key=lambda item: (-item[1], item[0]))
            print(f"warp -O{opt}: unsupported: " + "; ".join(f"{why} {number}" for why, number in top[:8])
                  + ("; ..." if len(top) > 8 else ""))
        llc_totals, ptxcc_totals = Totals(), Totals()
        for o in mine:
            llc_totals += o.llc
            ptxcc_totals += o.ptxcc
        print(f"warp -O{opt}: ptxas totals llc / ptxcc: stack {llc_totals.stack} / {ptxcc_totals.stack} bytes, "
              f"spills {llc_totals.spills} / {ptxcc_totals.spills} bytes, kernel registers "
              f"{llc_totals.registers} / {ptxcc_totals.registers}")
        more = [line for o in mine for line in o.registers]
        equal = sum(o.registers_other_mode_equal for o in mine)
        print(f"warp -O{opt}: kernels with more registers than llc alone and no less stack + spills with their callees: "
              f"{len(more)} ({equal} with no more than llc alone in ptxas's other mode)")
        if verbose:
            for line in more:
                print(f"warp -O{opt}:   {line}")
        failures += len(pipeline) + len(ptxas) + worse + diff
    same = sum(o.verdicts.get("same", 0) for o in outcomes)
    print(f"warp: {failures} failures; {same} kernels run the same ({seconds:.0f} s)")
    return failures


def run(args):
    corpus = find_corpus(sample=not args.all)
    if corpus is None:
        print("warp_corpus: no corpus (run `scripts/warp_corpus.py generate`)", file=sys.stderr)
        return 2
    tools = find_tools()
    if tools.ptxas is None:
        print("warp_corpus: no ptxas (run `scripts/nvidia_tools.py ensure`)", file=sys.stderr)
        return 2
    if not os.access(args.ptxcc_opt, os.X_OK):
        print(f"warp_corpus: no ptxcc-opt at {args.ptxcc_opt}", file=sys.stderr)
        return 2
    # The driver's internal-error fallback fails instead of warning, here
    # and in the harness's own runs of the driver.
    os.environ["PTXCC_FALLBACK"] = "error"
    with open(os.path.join(corpus, "index.json")) as f:
        index = json.load(f)
    selected = select(index, args)
    opts = [int(o) for o in args.opt] if args.opt else [2, 3]
    args.out = os.path.abspath(args.out or tempfile.mkdtemp(prefix="warp-corpus."))
    os.makedirs(args.out, exist_ok=True)
    # One run per --out: two would remove each other's module folders and
    # interleave the journal (both lose modules). Held until the process
    # ends.
    lock = open(os.path.join(args.out, ".lock"), "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        print(f"warp_corpus: another run is using {args.out}; give this one another --out", file=sys.stderr)
        return 2
    cache = ll_cache(corpus)
    start = time.time()
    # Big modules first, so the last ones to finish are small.
    tasks = [(corpus, cache, name, entry, opt, args, tools) for opt in opts for name, entry in selected]
    tasks.sort(key=lambda task: -os.path.getsize(os.path.join(corpus, task[3]["file"])))
    outcomes = []
    journal = os.path.join(args.out, "outcomes.jsonl")
    if args.resume and os.path.exists(journal):
        with open(journal) as f:
            done = [from_json(json.loads(line)) for line in f if line.strip()]
        wanted = {(name, opt) for name, _ in selected for opt in opts}
        outcomes = [outcome for outcome in done if (outcome.module, outcome.opt) in wanted]
        finished = {(outcome.module, outcome.opt) for outcome in outcomes}
        tasks = [task for task in tasks if (task[2], task[4]) not in finished]
        print(f"warp: resuming: {len(outcomes)} module runs done, {len(tasks)} to go", flush=True)
    progress = open(journal, "a" if args.resume else "w")
    with ThreadPoolExecutor(max_workers=args.jobs) as pool, progress:
        for future in as_completed([pool.submit(check_safely, task) for task in tasks]):
            outcome = future.result()
            outcomes.append(outcome)
            progress.write(json.dumps(as_json(outcome)) + "\n")
            progress.flush()
            problems = outcome.pipeline + outcome.ptxas + outcome.worse + outcome.diffexec
            if args.verbose or problems:
                status = "FAIL" if problems else ("skip" if outcome.skipped else "ok")
                print(f"{status}: {outcome.module} -O{outcome.opt} ({outcome.kernels} kernels, "
                      f"{outcome.seconds:.1f} s){': ' + outcome.skipped if outcome.skipped else ''}", flush=True)
                for line in problems[:20]:
                    print(f"  {line}", flush=True)
    outcomes.sort(key=lambda o: (o.opt, o.module))
    with open(os.path.join(args.out, "outcomes.json"), "w") as f:
        json.dump([as_json(outcome) for outcome in outcomes], f, indent=1)
    failures = print_summary(index, outcomes, selected, opts, time.time() - start, args.verbose)
    if failures:
        print(f"warp: the failing modules' files are in {args.out}")
    elif not args.out_given:
        shutil.rmtree(args.out, ignore_errors=True)
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    ensure_parser = commands.add_parser("ensure", help="install warp-lang and numpy in the cache")
    ensure_parser.add_argument("--offline", action="store_true", help="never download; fail if missing")
    generate_parser = commands.add_parser("generate", help="generate the corpus's CUDA into the cache")
    generate_parser.add_argument("--offline", action="store_true", help="never download; fail if missing")
    generate_parser.add_argument("--sample", action="store_true",
                                 help="only SAMPLE's modules (unless the full corpus is there)")
    commands.add_parser("where", help="print the corpus folder; exit 1 if there is none")
    run_parser = commands.add_parser("run", help="compile the corpus and check every module")
    which = run_parser.add_mutually_exclusive_group()
    which.add_argument("--sample", action="store_true", help="SAMPLE's modules (the default)")
    which.add_argument("--all", action="store_true", help="every module")
    which.add_argument("--module", action="append", help="this module (repeatable)")
    run_parser.add_argument("--opt", action="append", choices=["0", "1", "2", "3"],
                            help="clang -O level (repeatable; default 2 and 3)")
    run_parser.add_argument("--jobs", type=int, default=2, help="modules checked at once (default 2)")
    run_parser.add_argument("--ptxcc-opt", default=os.path.join(REPO, "target", "release", "ptxcc-opt"))
    run_parser.add_argument("--out", help="where failing modules' files stay (default: a temporary folder)")
    run_parser.add_argument("--keep", action="store_true", help="keep every module's files in --out")
    run_parser.add_argument("--resume", action="store_true",
                            help="skip the module runs --out's outcomes.jsonl already holds (an interrupted run)")
    run_parser.add_argument("--seeds", type=int, default=3, help="diffexec seeds per kernel (default 3)")
    run_parser.add_argument("--run-timeout", type=int, default=20,
                            help="seconds a kernel may run on the host (default 20, the harness's)")
    run_parser.add_argument("--no-diffexec", action="store_true", help="skip the differential execution")
    run_parser.add_argument("--verbose", "-v", action="store_true", help="a line per module")
    codegen_parser = commands.add_parser("_codegen")  # internal: runs in the Python that has Warp
    codegen_parser.add_argument("out")
    codegen_parser.add_argument("--import", dest="imports", nargs="*")
    args = parser.parse_args()
    if args.command == "ensure":
        site = ensure(args.offline)
        if site is None:
            return 2
        print(site)
        return 0
    if args.command == "generate":
        folder = generate(args.offline, args.sample)
        if folder is None:
            return 2
        print(folder)
        return 0
    if args.command == "where":
        folder = find_corpus(sample=True)
        if folder is None:
            print("warp_corpus: no Warp corpus (run `scripts/warp_corpus.py generate`)", file=sys.stderr)
            return 1
        print(folder)
        return 0
    if args.command == "_codegen":
        return codegen_child(args.out, args.imports)
    args.out_given = args.out is not None
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
