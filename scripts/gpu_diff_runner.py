#!/usr/bin/env python3
"""Runs a GPU differential bundle (made by scripts/gpu_diff.py prepare) on a
real NVIDIA GPU: each kernel, compiled by llc alone and by ptxcc, on the same
inputs; every buffer it can reach and every global variable of its module
must come back byte for byte the same (floats bitwise).

    gpu_diff_runner.py BUNDLE OUT          run; results into OUT
    gpu_diff_runner.py BUNDLE OUT --only device-calls-write.O0 --only 'gpu-move-param.*:_Z4vec3*'
                                           run a subset (MODULE[:KERNEL], shell patterns)
    gpu_diff_runner.py --selftest          check the runner without a GPU

Standard library only (ctypes against the driver's libcuda.so.1): the
machine that runs it needs Python 3 and the NVIDIA driver, nothing else.

Per kernel, five runs, each on freshly written inputs (the same buffers,
so the same addresses, unless a fault forced a new process), in this
order: `llc` and `ptxcc` (each PTX file through the driver's JIT,
cuModuleLoadDataEx), `llc-again` (llc's PTX once more), `llc-cubin` and
`ptxcc-cubin` (the same PTX files assembled when the bundle was prepared
by NVIDIA's ptxas from PyPI, loaded as they are with cuModuleLoadData).
Bytes that differ between the two JIT runs of llc's PTX are not
deterministic (atomics, races, uninitialised memory) and are compared in
no pair; everywhere else ptxcc's run must leave llc's bytes, under the JIT
(ptxcc against llc) and under ptxas (ptxcc-cubin against llc-cubin). A
difference whose 8 bytes look like an address on both sides is marked so
(a kernel that stores where its local copy lives differs without being
wrong). A bundle prepared without ptxas has no cubins: their runs are
skipped and nothing else changes.

Which runs agree is reported per kernel (`flavours`: groups of runs that
left the same bytes, `llc = llc-cubin | ptxcc = ptxcc-cubin`). The two
assemblers give a reference where llc's PTX alone cannot: when the driver's
JIT and ptxas disagree on llc's own PTX (`assembler split`), llc's PTX is
no reference (an assembler's bug, or PTX whose meaning the two read
differently); when three runs agree and one does not, that one is named
(`odd one out`).

Verdicts: same; differs (the first differing byte: buffer or global,
offset; the JIT pair first, then the cubin pair); load error / launch
error / hang / crash (ptxcc's run, where llc's ran: its JIT log or the
driver's error); abi mismatch (ptxcc's .entry takes other parameters than
llc's); reference invalid (llc's own run failed: the inputs do not suit
the kernel, nothing to compare, and the runs that needed it are skipped);
not run (the deadline passed). Each run happens in a worker process; a run
that hangs is killed after --run-timeout seconds, a fault that poisons the
context ends its worker, and the next run starts in a new one.

OUT gets gpu-diff-results.json (everything), gpu-diff-summary.txt (what is
printed), gpu-diff-flavours.txt (each kernel's verdict and flavours, a
line each) and gpu-diff-progress.jsonl (each run as it ends, useful when
the command is cut short). Exit status: 0 when every kernel ran and none
failed, 1 otherwise, 2 when there is no GPU or no driver ("no GPU:
skipped").
"""

import argparse
import ctypes
import fnmatch
import json
import os
import pickle
import random
import re
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import time

FORMAT = 1
# Runs per kernel, in order, and the image each one loads: (kind, flavour),
# kind "ptx" (through the driver's JIT) or "cubin" (assembled by ptxas when
# the bundle was prepared; a bundle without cubins skips their runs). llc's
# second run comes after ptxcc's, so that it finds other leftovers in local
# and shared memory than its first: a reference that reads memory nothing
# wrote shows it.
RUNS = ("llc", "ptxcc", "llc-again", "llc-cubin", "ptxcc-cubin")
IMAGE = {"llc": ("ptx", "llc"), "ptxcc": ("ptx", "ptxcc"), "llc-again": ("ptx", "llc"),
         "llc-cubin": ("cubin", "llc"), "ptxcc-cubin": ("cubin", "ptxcc")}
# A run is skipped (not tried) when every run it is compared with failed.
NEEDS = {"ptxcc": ("llc",), "llc-again": ("llc",), "ptxcc-cubin": ("llc-cubin", "llc")}
# The runs whose results are grouped (llc-again only masks nondeterminism).
COMPARED = ("llc", "ptxcc", "llc-cubin", "ptxcc-cubin")
NO_CUBIN = "no cubin in the bundle"
# Verdicts that fail the check.
FAILING = ("differs", "load error", "launch error", "hang", "crash", "abi mismatch")
LOW4 = bytes(i & 15 for i in range(256))

# ----------------------------------------------------------------------------
# Inputs


def buffer_contents(seed, size):
    """A buffer of 32-bit little-endian words 0-15 (small values are safe
    indices), the same for the same seed on any Python 3."""
    words = size // 4
    data = bytearray(size)
    if words:
        noise = random.Random(seed).getrandbits(8 * words).to_bytes(words, "little")
        data[0 : 4 * words : 4] = noise.translate(LOW4)
    return bytes(data)


def pack_param(param, addresses):
    """The bytes of one kernel argument: the spec's initial bytes with each
    pointer slot set to its buffer's device address, padded to at least 8
    bytes (the driver copies the parameter's size from the kernel's own
    description)."""
    data = bytearray(bytes.fromhex(param["init"]))
    for slot in param.get("pointers", ()):
        struct.pack_into("<Q", data, slot["offset"], addresses[slot["buffer"]])
    if len(data) < 8:
        data += bytes(8 - len(data))
    return bytes(data)


# ----------------------------------------------------------------------------
# PTX text


ENTRY = re.compile(r"\.entry\s+([\w$]+)\s*\(([^)]*)\)")
PARAM_TYPE = re.compile(r"\.param\s+(?:\.align\s+\d+\s+)?\.[a-z]+?(\d+)\b")
GLOBAL = re.compile(
    r"^[ \t]*(?:\.visible\s+|\.weak\s+|\.common\s+)?\.global\s+(?:\.attribute\([^)]*\)\s+)?"
    r"(?:\.align\s+\d+\s+)?(?:\.v\d\s+)?\.[a-z]+\d+\s+([\w$%]+)",
    re.M,
)


def param_bytes(declaration):
    """Size of one `.param` of an .entry: `.u64 .ptr .align 1 x` -> 8,
    `.align 8 .b8 x[32]` -> 32."""
    match = PARAM_TYPE.match(declaration.strip())
    if not match:
        raise ValueError(f"cannot read the parameter {declaration.strip()!r}")
    count = re.search(r"\[(\d+)\]\s*$", declaration)
    return int(match.group(1)) // 8 * (int(count.group(1)) if count else 1)


def entries(ptx):
    """{kernel name: [parameter sizes]} of every .entry in a PTX text."""
    found = {}
    for match in ENTRY.finditer(ptx):
        params = [p for p in match.group(2).split(",") if p.strip()]
        found[match.group(1)] = [param_bytes(p) for p in params]
    return found


def global_names(ptx):
    """Names of the module's .global variables (defined here, not .extern)."""
    return GLOBAL.findall(ptx)


def fake_directives(ptx):
    """The fake backend's instructions in a PTX text (selftest only):
    `// fake-kernel NAME: BEHAVIOUR` and `// fake-module: loadfail`."""
    kernels = dict(re.findall(r"^// fake-kernel ([\w$]+): (\S+)", ptx, re.M))
    return kernels, bool(re.search(r"^// fake-module: loadfail", ptx, re.M))


# ----------------------------------------------------------------------------
# Backends


class NoGpu(Exception):
    """No driver or no device: the check is skipped."""


class LoadError(Exception):
    """The JIT refused a module (the message holds its log)."""


class LaunchError(Exception):
    """A launch or its completion failed; `sticky` when the context is
    unusable afterwards (the worker must end)."""

    def __init__(self, message, sticky):
        super().__init__(message)
        self.sticky = sticky


# CUresult codes after which a context cannot be used again.
STICKY = {700, 701, 702, 709, 710, 714, 715, 716, 717, 718, 719, 720, 999}
JIT_INFO_LOG_BUFFER, JIT_INFO_LOG_BUFFER_SIZE_BYTES = 3, 4
JIT_ERROR_LOG_BUFFER, JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 5, 6
JIT_LOG_VERBOSE = 12
LOG_SIZE = 1 << 16
CU_LIMIT_STACK_SIZE = 0
STACK_BYTES = 8192
# The symbols cuda.h's macros name (the unversioned ones are CUDA 3's ABI);
# every other function is called by its own name (cuCtxSynchronize_v2, for
# one, takes a context: not what cuCtxSynchronize means).
VERSIONED = {"cuModuleGetGlobal": "cuModuleGetGlobal_v2", "cuMemAlloc": "cuMemAlloc_v2",
             "cuMemFree": "cuMemFree_v2", "cuMemcpyHtoD": "cuMemcpyHtoD_v2", "cuMemcpyDtoH": "cuMemcpyDtoH_v2"}


class CudaBackend:
    """The driver API through ctypes: one device, its primary context."""

    def __init__(self, libcuda="libcuda.so.1", context=True):
        try:
            self.lib = ctypes.CDLL(libcuda)
        except OSError as error:
            raise NoGpu(f"cannot load {libcuda}: {error}")
        self.names = {}
        self.call("cuInit", ctypes.c_uint(0), what=NoGpu)
        count = ctypes.c_int()
        self.call("cuDeviceGetCount", ctypes.byref(count), what=NoGpu)
        if count.value == 0:
            raise NoGpu("the driver sees no device")
        self.device = ctypes.c_int()
        self.call("cuDeviceGet", ctypes.byref(self.device), 0, what=NoGpu)
        self.context = None
        self.stack = None
        if context:
            self.context = ctypes.c_void_p()
            self.call("cuDevicePrimaryCtxRetain", ctypes.byref(self.context), self.device)
            self.call("cuCtxSetCurrent", self.context)
            # Recursive kernels' stacks are not sized statically: 1 KiB
            # per thread by default, and ptxcc's frames need not be llc's.
            try:
                self.call("cuCtxSetLimit", CU_LIMIT_STACK_SIZE, ctypes.c_size_t(STACK_BYTES))
                self.stack = STACK_BYTES
            except (LaunchError, NoGpu):
                pass

    def function_of(self, name):
        try:
            return getattr(self.lib, VERSIONED.get(name, name))
        except AttributeError:
            raise NoGpu(f"the driver lacks {VERSIONED.get(name, name)}")

    def error_text(self, code):
        name, text = ctypes.c_char_p(), ctypes.c_char_p()
        self.lib.cuGetErrorName(code, ctypes.byref(name))
        self.lib.cuGetErrorString(code, ctypes.byref(text))
        decode = lambda p: p.value.decode(errors="replace") if p.value else "?"  # noqa: E731
        return f"{decode(name)} ({code}): {decode(text)}"

    def call(self, name, *args, what=None):
        function = self.names.get(name) or self.function_of(name)
        self.names[name] = function
        code = function(*args)
        if code != 0:
            message = f"{name}: {self.error_text(code)}"
            if what is not None:
                raise what(message)
            raise LaunchError(message, code in STICKY)
        return code

    def describe(self):
        name = ctypes.create_string_buffer(256)
        self.call("cuDeviceGetName", name, 256, self.device)
        version, major, minor = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        self.call("cuDriverGetVersion", ctypes.byref(version))
        self.call("cuDeviceGetAttribute", ctypes.byref(major), 75, self.device)  # compute capability major
        self.call("cuDeviceGetAttribute", ctypes.byref(minor), 76, self.device)
        return {"device": name.value.decode(errors="replace"), "driver": version.value,
                "compute_capability": f"{major.value}.{minor.value}", "stack_bytes_per_thread": self.stack}

    def load(self, image, kind="ptx"):
        """A module from PTX text (through the JIT, its log kept) or from a
        cubin's bytes (loaded as they are)."""
        module = ctypes.c_void_p()
        if kind == "cubin":
            code = self.lib.cuModuleLoadData(ctypes.byref(module), ctypes.c_char_p(bytes(image)))
            if code != 0:
                raise LoadError(f"cuModuleLoadData (cubin): {self.error_text(code)}")
            return module
        ptx = image.decode() if isinstance(image, bytes) else image
        info = ctypes.create_string_buffer(LOG_SIZE)
        error = ctypes.create_string_buffer(LOG_SIZE)
        options = (ctypes.c_int * 5)(JIT_INFO_LOG_BUFFER, JIT_INFO_LOG_BUFFER_SIZE_BYTES, JIT_ERROR_LOG_BUFFER,
                                     JIT_ERROR_LOG_BUFFER_SIZE_BYTES, JIT_LOG_VERBOSE)
        values = (ctypes.c_void_p * 5)(ctypes.cast(info, ctypes.c_void_p), ctypes.c_void_p(LOG_SIZE),
                                       ctypes.cast(error, ctypes.c_void_p), ctypes.c_void_p(LOG_SIZE),
                                       ctypes.c_void_p(1))
        code = self.lib.cuModuleLoadDataEx(ctypes.byref(module), ptx.encode() + b"\0", 5, options, values)
        if code != 0:
            log = error.value.decode(errors="replace").strip()
            raise LoadError(f"cuModuleLoadDataEx: {self.error_text(code)}\n{log}".strip())
        return module

    def function(self, module, name):
        function = ctypes.c_void_p()
        code = self.lib.cuModuleGetFunction(ctypes.byref(function), module, name.encode())
        if code != 0:
            raise LoadError(f"cuModuleGetFunction({name}): {self.error_text(code)}")
        return function

    def global_address(self, module, name):
        address, size = ctypes.c_uint64(), ctypes.c_size_t()
        getter = self.names.get("cuModuleGetGlobal") or self.function_of("cuModuleGetGlobal")
        self.names["cuModuleGetGlobal"] = getter
        if getter(ctypes.byref(address), ctypes.byref(size), module, name.encode()) != 0:
            return None
        return address.value, size.value

    def alloc(self, size):
        address = ctypes.c_uint64()
        self.call("cuMemAlloc", ctypes.byref(address), ctypes.c_size_t(size))
        return address.value

    def free(self, address):
        self.function_of("cuMemFree")(ctypes.c_uint64(address))

    def write(self, address, data):
        self.call("cuMemcpyHtoD", ctypes.c_uint64(address), data, ctypes.c_size_t(len(data)))

    def read(self, address, size):
        out = ctypes.create_string_buffer(size)
        self.call("cuMemcpyDtoH", out, ctypes.c_uint64(address), ctypes.c_size_t(size))
        return out.raw

    def launch(self, function, grid, block, shared, params, kernel):
        storage = [ctypes.create_string_buffer(p, len(p)) for p in params]
        pointers = (ctypes.c_void_p * max(1, len(storage)))(
            *[ctypes.cast(s, ctypes.c_void_p) for s in storage])
        self.call("cuLaunchKernel", function, *[ctypes.c_uint(v) for v in grid], *[ctypes.c_uint(v) for v in block],
                  ctypes.c_uint(shared), ctypes.c_void_p(0), pointers if storage else None, None)
        self.call("cuCtxSynchronize")


class FakeBackend:
    """A pretend GPU for --selftest: memory is a dict; a kernel does what
    its PTX's `// fake-kernel NAME: BEHAVIOUR` comment says: copy (its
    argument bytes into the first buffer an argument points to, and 0x5A
    into byte 0 of every other buffer it can reach), differ (copy, then a
    byte changed), racy (copy, then a byte that changes every launch),
    fault (a sticky launch error), hang, crash (the process dies)."""

    BASE = 0x7F00_0000_0000
    launches = []  # (kernel, [argument bytes]) of every launch: the selftest reads them

    def __init__(self):
        self.memory = {}
        self.next = self.BASE
        self.noise = random.Random()

    def describe(self):
        return {"device": "fake", "driver": 0, "compute_capability": "0.0"}

    def load(self, image, kind="ptx"):
        ptx = image.decode() if isinstance(image, bytes) else image  # a selftest's cubin is PTX text too
        kernels, loadfail = fake_directives(ptx)
        if loadfail:
            raise LoadError("fake JIT: ptxas fatal: this module was told to fail")
        globals_ = {name: self.alloc(16) for name in global_names(ptx)}
        return {"kernels": kernels, "entries": entries(ptx), "globals": globals_}

    def function(self, module, name):
        if name not in module["entries"]:
            raise LoadError(f"fake: no kernel {name}")
        return (name, module["kernels"].get(name, "copy"))

    def global_address(self, module, name):
        address = module["globals"].get(name)
        return None if address is None else (address, len(self.memory[address]))

    def alloc(self, size):
        address = self.next
        self.memory[address] = bytearray(size)
        self.next += (size + 0xFFFF) & ~0xFFFF
        return address

    def free(self, address):
        self.memory.pop(address, None)

    def write(self, address, data):
        self.memory[address][: len(data)] = data

    def read(self, address, size):
        return bytes(self.memory[address][:size])

    def launch(self, function, grid, block, shared, params, kernel):
        name, behaviour = function
        FakeBackend.launches.append((name, list(params)))
        if behaviour == "fault":
            raise LaunchError("cuCtxSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS (700): an illegal memory access", True)
        if behaviour == "hang":
            time.sleep(3600)
        if behaviour == "crash":
            os._exit(9)
        if behaviour == "print":  # as vprintf does: to descriptor 1
            os.write(1, b"printed by a kernel\n{not json\n")
        reached = []
        for data in params:
            for offset in range(0, len(data) - 7, 8):
                (value,) = struct.unpack_from("<Q", data, offset)
                if value in self.memory and value not in reached:
                    reached.append(value)
        if not reached:
            return
        first = self.memory[reached[0]]
        blob = b"".join(params)
        first[: len(blob)] = blob
        for other in reached[1:]:
            self.memory[other][0] = 0x5A
        if behaviour == "differ":
            first[100] ^= 0xFF
        if behaviour == "racy":
            first[200] = self.noise.randrange(256)


def make_backend(name, libcuda):
    return FakeBackend() if name == "fake" else CudaBackend(libcuda)


# ----------------------------------------------------------------------------
# The bundle


def selected(only, module, kernel):
    """Whether --only's patterns (MODULE or MODULE:KERNEL, shell patterns)
    let a kernel (or, kernel None, a module) through; no patterns: all."""
    if not only:
        return True
    for pattern in only:
        module_pattern, _, kernel_pattern = pattern.partition(":")
        if fnmatch.fnmatchcase(module, module_pattern) and (
                kernel is None or not kernel_pattern or fnmatch.fnmatchcase(kernel, kernel_pattern)):
            return True
    return False


def load_jobs(bundle, only=None):
    """(manifest, [job]): a job is one kernel's spec with its module's
    PTX and cubin paths (absolute). `only`: --only's patterns; the
    manifest keeps the modules they select."""
    with open(os.path.join(bundle, "manifest.json")) as f:
        manifest = json.load(f)
    if manifest.get("format") != FORMAT:
        raise SystemExit(f"gpu_diff_runner: {bundle}: bundle format {manifest.get('format')}, expected {FORMAT}")
    jobs = []
    if only:
        manifest["modules"] = [m for m in manifest["modules"] if selected(only, m["id"], None)]
        manifest["skipped_modules"] = [m for m in manifest.get("skipped_modules", [])
                                       if selected(only, m["id"], None)]
        for module in manifest["modules"]:
            module["skipped"] = [s for s in module.get("skipped", []) if selected(only, module["id"], s["kernel"])]
    for module in manifest["modules"]:
        for path in module["kernels"]:
            with open(os.path.join(bundle, path)) as f:
                spec = json.load(f)
            if not selected(only, module["id"], spec["kernel"]):
                continue
            spec["ptx_paths"] = {flavour: os.path.join(bundle, p) for flavour, p in module["ptx"].items()}
            # A module without "cubin": prepared without ptxas. One without
            # a flavour's cubin: ptxas refused that PTX (its verdict is in
            # "ptxas").
            if "cubin" in module:
                spec["cubin_paths"] = {flavour: os.path.join(bundle, p) for flavour, p in module["cubin"].items()}
                spec["ptxas_verdicts"] = module.get("ptxas", {})
            spec["module_source"] = module.get("source", "")
            spec["ptxas_name"] = ptxas_name(manifest)
            jobs.append(spec)
    if only and not jobs:
        raise SystemExit(f"gpu_diff_runner: --only {' '.join(only)}: no kernel of {bundle} matches")
    return manifest, jobs


# ----------------------------------------------------------------------------
# The worker: runs kernels, writes what memory held afterwards


class Worker:
    def __init__(self, backend, tmp, emit):
        self.backend = backend
        self.tmp = tmp
        self.emit = emit
        self.texts = {}
        self.modules = {}  # path -> (module, {global: (address, size, initial bytes)}) or LoadError
        self.buffers = None  # (job index, [address])

    def text(self, path):
        if path not in self.texts:
            with open(path) as f:
                self.texts[path] = f.read()
        return self.texts[path]

    def module(self, ptx_path, image_path=None):
        """The module of a PTX file (through the JIT) or, `image_path`
        given, of its cubin; the globals are those the PTX defines."""
        key = image_path or ptx_path
        if key not in self.modules:
            try:
                if image_path:
                    with open(image_path, "rb") as f:
                        module = self.backend.load(f.read(), "cubin")
                else:
                    module = self.backend.load(self.text(ptx_path), "ptx")
                found = {}
                for name in global_names(self.text(ptx_path)):
                    where = self.backend.global_address(module, name)
                    if where is not None and where[1] > 0:
                        found[name] = (where[0], where[1], self.backend.read(*where))
                self.modules[key] = (module, found)
            except LoadError as error:
                self.modules[key] = error
        result = self.modules[key]
        if isinstance(result, LoadError):
            raise result
        return result

    def release_buffers(self):
        if self.buffers is not None:
            for address in self.buffers[1]:
                try:
                    self.backend.free(address)
                except LaunchError:
                    pass
            self.buffers = None

    def run(self, index, job, run):
        """(status, detail, dump): dump is [(label, bytes)] of every buffer
        and global variable after the launch, None when nothing ran."""
        kind, flavour = IMAGE[run]
        path = job["ptx_paths"][flavour]
        image = None
        if kind == "cubin":
            if "cubin_paths" not in job:
                return "skipped", f"{NO_CUBIN} (prepared without ptxas)", None
            image = job["cubin_paths"].get(flavour)
            if image is None:
                verdict = job.get("ptxas_verdicts", {}).get(flavour, "no verdict")
                return "load error", f"ptxas refused {flavour}'s PTX when the bundle was prepared: {verdict}", None
        kernel = job["kernel"]
        found = entries(self.text(path))
        if kernel not in found:
            return "load error", f"no .entry {kernel} in {os.path.basename(path)}", None
        expected = [p["ptx_bytes"] for p in job["params"]]
        if found[kernel] != expected:
            return "abi mismatch", f".entry parameters {found[kernel]} bytes, the spec's {expected}", None
        try:
            module, globals_ = self.module(path, image)
            function = self.backend.function(module, kernel)
        except LoadError as error:
            return "load error", str(error), None
        if self.buffers is None or self.buffers[0] != index:
            self.release_buffers()
            self.buffers = (index, [self.backend.alloc(b["bytes"]) for b in job["buffers"]])
        addresses = self.buffers[1]
        for buffer, address in zip(job["buffers"], addresses):
            self.backend.write(address, buffer_contents(buffer["seed"], buffer["bytes"]))
        for address, size, initial in globals_.values():
            self.backend.write(address, initial)
        params = [pack_param(p, addresses) for p in job["params"]]
        self.backend.launch(function, job["grid"], job["block"], job.get("shared_bytes", 0), params, kernel)
        dump = [(f"buffer {b['id']} ({b['of']})", self.backend.read(a, b["bytes"]))
                for b, a in zip(job["buffers"], addresses)]
        dump += [(f"global {name}", self.backend.read(address, size))
                 for name, (address, size, _) in sorted(globals_.items())]
        return "ok", "", dump

    def steps(self, jobs, start, known=None):
        """Runs every (job, run) from `start` on; ends the process's part
        after a sticky fault (returns False) or when all are done (True).
        `known`: {run number: status} of the start job's runs before
        `start` (run by earlier workers). A run whose every reference
        (NEEDS) failed is skipped: nothing can be compared (and a fault
        would cost a new worker each)."""
        for index in range(start[0], len(jobs)):
            statuses = dict(known or {}) if index == start[0] else {}
            for number, run in enumerate(RUNS):
                if (index, number) < start:
                    continue
                self.emit({"ev": "begin", "job": index, "run": number})
                references = [RUNS.index(r) for r in NEEDS.get(run, ())]
                failed = [(RUNS[r], statuses[r]) for r in references if r in statuses and statuses[r] != "ok"]
                if references and len(failed) == len(references):
                    detail = "; ".join(f"{name}'s run failed ({status})" for name, status in failed) + ": not tried"
                    statuses[number] = "skipped"
                    self.emit({"ev": "end", "job": index, "run": number, "status": "skipped", "detail": detail,
                               "ms": None})
                    continue
                began = time.monotonic()
                sticky = False
                try:
                    status, detail, dump = self.run(index, jobs[index], run)
                except LaunchError as error:
                    status, detail, dump, sticky = "launch error", str(error), None, error.sticky
                statuses[number] = status
                if dump is not None:
                    with open(os.path.join(self.tmp, f"{index}.{number}.dump"), "wb") as f:
                        pickle.dump(dump, f)
                self.emit({"ev": "end", "job": index, "run": number, "status": status, "detail": detail,
                           "ms": round((time.monotonic() - began) * 1000, 1)})
                if sticky:
                    return False  # the next worker goes on, told what failed
            self.release_buffers()
        return True


def worker_main(args):
    _, jobs = load_jobs(args.bundle, args.only)
    # The protocol gets a descriptor of its own: what kernels print
    # (vprintf writes to descriptor 1) goes to the worker's stderr log.
    protocol = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)

    def emit(event):
        protocol.write(json.dumps(event) + "\n")
        protocol.flush()

    try:
        backend = make_backend(args.backend, args.libcuda)
        emit({"ev": "hello", **backend.describe()})
    except (NoGpu, LaunchError) as error:
        emit({"ev": "nogpu", "detail": str(error)})
        return 2
    start = tuple(int(x) for x in args.start.split(":"))
    known = {int(k): v for k, v in json.loads(args.known or "{}").items()}
    done = Worker(backend, args.tmp, emit).steps(jobs, start, known)
    if done:
        emit({"ev": "done"})
    return 0 if done else 3


# ----------------------------------------------------------------------------
# The parent: workers, timeouts, verdicts


class LineReader:
    """Lines of a worker's stdout, with a timeout."""

    def __init__(self, stream):
        self.stream = stream
        self.buffer = b""

    def line(self, timeout):
        """A decoded line; None on timeout; "" at end of file."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.stream], [], [], left)
            if not ready:
                return None
            chunk = os.read(self.stream.fileno(), 65536)
            if not chunk:
                rest, self.buffer = self.buffer, b""
                return rest.decode(errors="replace")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode(errors="replace") + "\n"


def tail(path, limit=2000):
    try:
        with open(path, errors="replace") as f:
            return f.read()[-limit:].strip()
    except OSError:
        return ""


def run_workers(args, jobs, tmp, progress):
    """{(job, run): {status, detail, ms}} and the device description."""
    steps = [(j, r) for j in range(len(jobs)) for r in range(len(RUNS))]
    outcomes, device = {}, {}
    position, started = 0, time.monotonic()
    fruitless = 0
    while position < len(steps):
        if time.monotonic() - started > args.deadline:
            break
        job, run = steps[position]
        log = os.path.join(tmp, f"worker-{position}.stderr")
        known = {r: outcomes[(job, r)]["status"] for r in range(run) if (job, r) in outcomes}
        command = [sys.executable, "-u", os.path.abspath(__file__), "--worker", args.bundle, "--tmp", tmp,
                   "--start", f"{job}:{run}", "--known", json.dumps(known), "--backend", args.backend,
                   "--libcuda", args.libcuda]
        for pattern in getattr(args, "only", None) or ():
            command += ["--only", pattern]
        with open(log, "w") as stderr:
            process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr)
        reader = LineReader(process.stdout)
        in_run, progressed = False, False
        while True:
            left = args.deadline - (time.monotonic() - started)
            limit = min(args.run_timeout if in_run else args.start_timeout, max(left, 0.1))
            line = reader.line(limit)
            if line is None:  # nothing in time: kill the worker
                process.kill()
                process.wait()
                if left <= limit:
                    break  # the deadline: this step and the rest are not run
                if in_run:  # the next worker skips the runs that needed this one
                    outcomes[steps[position]] = {"status": "hang", "ms": None,
                                                 "detail": f"no result after {limit:.0f} s: the worker was killed"}
                    progress(steps[position], outcomes[steps[position]])
                    position += 1
                    progressed = True
                break
            if line == "":  # the worker ended
                process.wait()
                if in_run:
                    outcomes[steps[position]] = {"status": "crash", "ms": None,
                                                 "detail": f"the worker died (exit {process.returncode}): {tail(log)}"}
                    progress(steps[position], outcomes[steps[position]])
                    position += 1
                    progressed = True
                break
            if not line.startswith("{"):
                continue  # not the protocol's
            event = json.loads(line)
            if event["ev"] == "hello":
                device = {k: v for k, v in event.items() if k != "ev"}
            elif event["ev"] == "nogpu":
                process.wait()
                raise NoGpu(event["detail"])
            elif event["ev"] == "begin":
                if (event["job"], event["run"]) != steps[position]:
                    raise RuntimeError(f"worker out of step: {event} at {steps[position]}")
                in_run = True
            elif event["ev"] == "end":
                outcome = {k: event[k] for k in ("status", "detail", "ms")}
                outcomes[steps[position]] = outcome
                progress(steps[position], outcome)
                position += 1
                in_run, progressed = False, True
            elif event["ev"] == "done":
                process.wait()
                break
        if process.poll() is None:
            process.kill()
            process.wait()
        fruitless = 0 if progressed else fruitless + 1
        if fruitless >= 2:
            # Two workers in a row that ran nothing: stop rather than loop.
            message = f"workers end without running anything: {tail(log)}"
            for step in steps[position:]:
                outcomes[step] = {"status": "not run", "detail": message, "ms": None}
                progress(step, outcomes[step])
            break
    return outcomes, device


def load_dump(tmp, job, run):
    path = os.path.join(tmp, f"{job}.{run}.dump")
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        return dict(pickle.load(f))


def differing(a, b):
    """Offsets where two byte strings differ (over the shorter length)."""
    if a == b:
        return []
    return [i for i in range(min(len(a), len(b))) if a[i] != b[i]]


def nondeterministic(reference, again):
    """{label: offsets} where llc's two JIT runs left different bytes:
    compared in no pair."""
    if reference is None or again is None:
        return {}
    return {label: set(differing(data, again[label])) for label, data in reference.items() if label in again}


def compare_dumps(reference, mask, output, names=("llc", "ptxcc")):
    """(masked bytes, differing bytes, first difference or None, notes) of
    the run `names[1]` against the run `names[0]`, the bytes of `mask`
    ({label: offsets}) left out."""
    masked_total, differing_total, first, notes = 0, 0, None, []
    for label, ref in reference.items():
        skip = mask.get(label, set())
        masked_total += len(skip)
        if label not in output:
            notes.append(f"{label}: absent from {names[1]}'s module")
            continue
        out = output[label]
        if len(out) != len(ref):
            notes.append(f"{label}: {len(ref)} bytes under {names[0]}, {len(out)} under {names[1]}")
        wrong = [i for i in differing(ref, out) if i not in skip]
        differing_total += len(wrong)
        if wrong and first is None:
            at = wrong[0]
            start = at - at % 4
            first = {"region": label, "offset": at, names[0]: ref[start : start + 16].hex(),
                     names[1]: out[start : start + 16].hex(), "shown_from": start}
            word = at - at % 8
            if word + 8 <= min(len(ref), len(out)):
                values = [struct.unpack_from("<Q", data, word)[0] for data in (ref, out)]
                if all(v >= 1 << 40 for v in values):  # above words 0-15 and small values
                    first["looks_like_address"] = [hex(v) for v in values]
    for label in output:
        if label not in reference:
            notes.append(f"{label}: only in {names[1]}'s module")
    return masked_total, differing_total, first, notes


def no_cubin(outcome):
    """Whether a run was skipped because the bundle has no cubins."""
    return outcome is not None and outcome["status"] == "skipped" and (outcome.get("detail") or "").startswith(NO_CUBIN)


def pair_verdict(runs, dumps, mask, reference, output):
    """(verdict, detail, extra) of the run `output` against the run
    `reference` ({name: outcome}, {name: dump}); None when the pair is
    not in the bundle (no cubins)."""
    ref, out = runs.get(reference), runs.get(output)
    given_up = [r for r in (ref, out) if r is not None and r["status"] == "not run"]
    if given_up:
        return "not run", given_up[0]["detail"], {}
    if ref is None or out is None:
        return "not run", "the deadline passed first", {}
    if no_cubin(ref):
        return None
    if out["status"] == "abi mismatch":
        return "abi mismatch", out["detail"], {}
    if ref["status"] != "ok":
        what = "ran fine" if out["status"] == "ok" else f"{out['status']}: {first_line(out['detail'])}"
        return ("reference invalid", f"{reference}'s run: {ref['status']}: {first_line(ref['detail'])}; "
                f"{output}'s: {what}", {})
    if out["status"] != "ok":
        return out["status"], out["detail"], {}
    if dumps.get(reference) is None or dumps.get(output) is None:
        return "crash", "a run's memory dump is missing", {}
    masked, wrong, first, notes = compare_dumps(dumps[reference], mask, dumps[output], (reference, output))
    extra = {"masked_bytes": masked, "differing_bytes": wrong, "notes": notes}
    if first is not None:
        extra["first_difference"] = first
        address = (f"; both look like addresses ({', '.join(first['looks_like_address'])}): a stored pointer?"
                   if "looks_like_address" in first else "")
        return "differs", (f"{first['region']} offset {first['offset']}: {reference} {first[reference]} {output} "
                           f"{first[output]} (from byte {first['shown_from']}; {wrong} bytes differ{address})"), extra
    return "same", (f"{masked} nondeterministic bytes not compared" if masked else ""), extra


def flavours_of(runs, dumps, mask, ptxas):
    """Which of the compared runs left the same bytes: {flavours (text),
    flavour_groups, agreement, assembler_split, odd_one_out, reference}."""
    expected = [r for r in COMPARED if not no_cubin(runs.get(r))]
    ran = [r for r in expected if (runs.get(r) or {}).get("status") == "ok" and dumps.get(r) is not None]
    groups = []
    for run in ran:
        for group in groups:
            if compare_dumps(dumps[group[0]], mask, dumps[run], (group[0], run))[1] == 0:
                group.append(run)
                break
        else:
            groups.append([run])
    failed = [(r, (runs.get(r) or {}).get("status", "not run")) for r in expected if r not in ran]
    text = " | ".join(" = ".join(group) for group in groups) or "none ran"
    if failed:
        text += " (" + ", ".join(f"{r}: {status}" for r, status in failed) + ")"
    group_of = {run: i for i, group in enumerate(groups) for run in group}
    split = [f for f in ("llc", "ptxcc") if f in group_of and f"{f}-cubin" in group_of
             and group_of[f] != group_of[f"{f}-cubin"]]
    odd = None
    if len(ran) == 4 and sorted(len(g) for g in groups) == [1, 3]:
        odd = next(g[0] for g in groups if len(g) == 1)
    if len(groups) > 1:
        agreement = "differ"
    elif failed:
        agreement = "incomplete"
    else:
        agreement = "all agree"
    # The reference: llc's PTX, where the two assemblers agree on it.
    if "llc" in split:
        reference = f"none: the driver's JIT and {ptxas} disagree on llc's PTX"
        if odd:
            reference += f"; {odd} is the odd one out (the other three agree)"
    elif "llc" in group_of and "llc-cubin" in group_of:
        reference = f"llc's PTX (the driver's JIT and {ptxas} agree on it)"
    elif "llc" in group_of or "llc-cubin" in group_of:
        reference = f"llc's PTX under {'the driver JIT' if 'llc' in group_of else ptxas} only"
    else:
        reference = "none: llc's PTX ran nowhere"
    return {"flavours": text, "flavour_groups": groups, "agreement": agreement, "assembler_split": split,
            "odd_one_out": odd, "reference": reference}


def verdict_of(job, runs, dumps):
    """(verdict, detail, extra) for one kernel from its runs ({run number:
    outcome}) and their dumps (by run number): ptxcc against llc under the
    driver's JIT, then (where the bundle has cubins) ptxcc-cubin against
    llc-cubin; the first failing verdict of the two is the kernel's."""
    ptxas = job.get("ptxas_name", "ptxas")
    runs = {RUNS[r]: outcome for r, outcome in runs.items()}
    dumps = {RUNS[r]: dump for r, dump in enumerate(dumps) if r < len(RUNS)}
    llc, again = runs.get("llc"), runs.get("llc-again")
    mask = nondeterministic(dumps.get("llc"), dumps.get("llc-again")) if again and again["status"] == "ok" else {}
    if again is not None and again["status"] == "not run":
        jit = ("not run", again["detail"], {})
    elif llc is not None and llc["status"] == "ok" and again is None:
        jit = ("not run", "the deadline passed first", {})
    else:
        jit = pair_verdict(runs, dumps, mask, "llc", "ptxcc")
    verdict, detail, extra = jit[0], jit[1], dict(jit[2])
    if verdict in ("same", "differs") and again["status"] != "ok":
        extra["notes"].append(f"llc's second run: {again['status']}: {first_line(again['detail'])}")
    cubin = pair_verdict(runs, dumps, mask, "llc-cubin", "ptxcc-cubin")
    if cubin is not None:
        extra["cubin_verdict"], extra["cubin_detail"] = cubin[0], cubin[1]
        if "first_difference" in cubin[2]:
            extra["cubin_first_difference"] = cubin[2]["first_difference"]
        if cubin[0] in FAILING and verdict not in FAILING:
            verdict, detail = cubin[0], f"cubins ({ptxas}): {cubin[1]}"
            if "differing_bytes" in cubin[2]:
                extra["differing_bytes"] = cubin[2]["differing_bytes"]
        elif cubin[0] == "not run" and verdict not in FAILING and verdict != "not run":
            verdict, detail = "not run", f"cubins: {cubin[1]}"
    if verdict != "not run":
        extra.update(flavours_of(runs, dumps, mask, ptxas))
        if job.get("expected"):
            matched = expected_matches(job, runs, dumps)
            extra["expected"] = matched
            extra["reference"] = "the expected bytes (known when prepared): " + (
                ", ".join(f"{run} {'left them' if ok else 'did not'}" for run, ok in matched.items()) or "nothing ran")
    return verdict, detail, extra


def expected_matches(job, runs, dumps):
    """{run: whether it left the spec's expected bytes} for the compared
    runs that ran (a probe's kernels know their results)."""
    matched = {}
    for run in COMPARED:
        dump = dumps.get(run)
        if (runs.get(run) or {}).get("status") != "ok" or dump is None:
            continue
        ok = True
        for want in job["expected"]:
            label = next((k for k in dump if k.startswith(f"buffer {want['buffer']} ")), None)
            data = bytes.fromhex(want["hex"])
            if label is None or dump[label][want["offset"] : want["offset"] + len(data)] != data:
                ok = False
        matched[run] = ok
    return matched


def first_line(text):
    return (text or "").strip().splitlines()[0] if (text or "").strip() else ""


def ptxas_name(manifest):
    version = (manifest or {}).get("ptxas_version")
    return f"ptxas {version}" if version else "ptxas"


MAX_INCOMPLETE_SHOWN = 20


def flavours_line(result, manifest):
    """`flavours: MODULE KERNEL: llc | ptxcc = ...; what it means`."""
    shown = result.get("assembler_split") or result.get("odd_one_out") or "expected" in result
    extra = [result["reference"]] if shown else []
    if "ptxcc" in result.get("assembler_split", []):
        extra.append(f"the driver's JIT and {ptxas_name(manifest)} disagree on ptxcc's PTX")
    return f"flavours: {result['module']} {result['kernel']}: {result['flavours']}" + "".join(f"; {e}" for e in extra)


def flavours_table(results, manifest):
    """One line per kernel: its verdict and which flavours agree."""
    return "\n".join(f"{r['verdict']}: " + (flavours_line(r, manifest)[len("flavours: "):] if "flavours" in r
                                            else f"{r['module']} {r['kernel']}: {first_line(r['detail'])}")
                     for r in results) + "\n"


def summarize(results, manifest, device):
    """The text summary of a results object (also gpu_diff.py check's)."""
    lines = []
    if device:
        lines.append(f"gpu_diff: device {device.get('device')} (compute capability "
                     f"{device.get('compute_capability')}), driver {device.get('driver')}")
    counts = {}
    for result in results:
        counts[result["verdict"]] = counts.get(result["verdict"], 0) + 1
    for result in results:
        if result["verdict"] != "same" or result.get("masked_bytes"):
            lines.append(f"{result['verdict']}: {result['module']} {result['kernel']}: {first_line(result['detail'])}")
    incomplete = 0
    for result in results:
        if result.get("agreement") not in (None, "all agree") or (
                "expected" in result and not all(result["expected"].values())):
            if result["agreement"] == "incomplete":
                incomplete += 1
                if incomplete > MAX_INCOMPLETE_SHOWN:
                    continue
            lines.append(flavours_line(result, manifest))
    if incomplete > MAX_INCOMPLETE_SHOWN:
        lines.append(f"flavours: {incomplete - MAX_INCOMPLETE_SHOWN} more kernels where some flavours did not run "
                     "(gpu-diff-flavours.txt)")
    skipped = [(m["id"], s) for m in manifest.get("modules", []) for s in m.get("skipped", [])]
    skipped += [(m["id"], {"kernel": "(module)", "why": m["why"]}) for m in manifest.get("skipped_modules", [])]
    for module, entry in skipped:
        lines.append(f"skipped when prepared: {module} {entry['kernel']}: {entry['why']}")
    agreement = {}
    for result in results:
        if "agreement" in result:
            agreement[result["agreement"]] = agreement.get(result["agreement"], 0) + 1
    if agreement:
        cubins = any("cubin_verdict" in r for r in results)
        split = {f: sum(1 for r in results if f in r.get("assembler_split", [])) for f in ("llc", "ptxcc")}
        which = f"JIT and {ptxas_name(manifest)} cubins" if cubins else "JIT only: no cubins"
        lines.append(f"gpu_diff: flavours ({which}): "
                     + ", ".join(f"{n} {kind}" for kind, n in sorted(agreement.items()))
                     + (f"; the JIT and ptxas disagree on llc's PTX in {split['llc']}, on ptxcc's in {split['ptxcc']}"
                        if cubins else ""))
    probes = [r for r in results if "expected" in r]
    if probes:
        lines.append(f"gpu_diff: expected bytes known for {len(probes)} kernels; left by "
                     + ", ".join(f"{run} in {sum(1 for r in probes if r['expected'].get(run))}" for run in COMPARED))
    failing = [r for r in results if r["verdict"] in FAILING]
    kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))
    not_run = sum(1 for r in results if r["verdict"] == "not run")
    lines.append(f"gpu_diff: {len(results)} kernels ({kinds}); {len(failing)} failing; "
                 f"{len(skipped)} skipped when prepared" + (f"; INCOMPLETE: {not_run} not run" if not_run else ""))
    return "\n".join(lines)


def exit_status(results):
    if any(r["verdict"] in FAILING or r["verdict"] == "not run" for r in results):
        return 1
    return 0


def run_bundle(args):
    manifest, jobs = load_jobs(args.bundle, getattr(args, "only", None))
    os.makedirs(args.out, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="gpu-diff.")
    progress_path = os.path.join(args.out, "gpu-diff-progress.jsonl")
    results = [None] * len(jobs)
    outcomes = {}

    def finish(index):
        """The verdict of job `index` from what its runs left; its dumps go."""
        job = jobs[index]
        runs = {r: outcomes[(index, r)] for r in range(len(RUNS)) if (index, r) in outcomes}
        dumps = [load_dump(tmp, index, r) for r in range(len(RUNS))]
        verdict, detail, extra = verdict_of(job, runs, dumps)
        for r in range(len(RUNS)):
            try:
                os.remove(os.path.join(tmp, f"{index}.{r}.dump"))
            except OSError:
                pass
        results[index] = {"module": job["module"], "source": job["module_source"], "kernel": job["kernel"],
                          "verdict": verdict, "failing": verdict in FAILING, "detail": detail,
                          "runs": {RUNS[r]: o for r, o in runs.items()}, "notes": job.get("notes", []), **extra}
        return results[index]

    try:
        if args.backend == "cuda":
            probe = CudaBackend(args.libcuda, context=False)  # raises NoGpu
            del probe
        with open(progress_path, "w") as progress_file:
            def progress(step, outcome):
                index, run = step
                outcomes[step] = outcome
                line = {"module": jobs[index]["module"], "kernel": jobs[index]["kernel"], "run": RUNS[run], **outcome}
                if run == len(RUNS) - 1:
                    line["verdict"] = finish(index)["verdict"]
                progress_file.write(json.dumps(line) + "\n")
                progress_file.flush()

            try:
                _, device = run_workers(args, jobs, tmp, progress)
            except NoGpu:
                raise
            except Exception as error:  # noqa: BLE001 (the runner's own bug: keep what ran)
                device = {"runner_error": f"{type(error).__name__}: {error}"}
                print(f"gpu_diff_runner: internal error, the rest is not run: {type(error).__name__}: {error}")
                for index in range(len(jobs)):
                    for run in range(len(RUNS)):
                        if (index, run) not in outcomes:
                            outcomes[(index, run)] = {"status": "not run", "ms": None,
                                                      "detail": f"runner error: {error}"}
        for index in range(len(jobs)):
            if results[index] is None:
                finish(index)
    except NoGpu as error:
        message = f"no GPU: skipped ({error})"
        print(message)
        with open(os.path.join(args.out, "gpu-diff-summary.txt"), "w") as f:
            f.write(message + "\n")
        with open(os.path.join(args.out, "gpu-diff-results.json"), "w") as f:
            json.dump({"format": FORMAT, "skipped": str(error), "results": []}, f, indent=1)
        return 2
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    summary = summarize(results, manifest, device)
    print(summary)
    with open(os.path.join(args.out, "gpu-diff-summary.txt"), "w") as f:
        f.write(summary + "\n")
    with open(os.path.join(args.out, "gpu-diff-flavours.txt"), "w") as f:
        f.write(flavours_table(results, manifest))
    with open(os.path.join(args.out, "gpu-diff-results.json"), "w") as f:
        json.dump({"format": FORMAT, "device": device, "manifest": {k: v for k, v in manifest.items()
                                                                    if k != "modules"},
                   "skipped": [{"module": m["id"], **s} for m in manifest["modules"] for s in m.get("skipped", [])]
                   + [{"module": m["id"], "kernel": "(module)", "why": m["why"]}
                      for m in manifest.get("skipped_modules", [])],
                   "results": results}, f, indent=1)
    return exit_status(results)


# ----------------------------------------------------------------------------
# Self-test: the runner's logic on the fake backend


SELFTEST_HEADER = """//
// Generated by LLVM NVPTX Back-End
.version 8.0
.target sm_90
.address_size 64

.global .align 4 .u32 counter;
.visible .global .align 8 .b8 table[64];
.extern .global .align 4 .u32 elsewhere;
"""
SELFTEST_ENTRY = """
.visible .entry NAME(
	.param .align 8 .b8 NAME_param_0[32],
	.param .u64 .ptr .align 1 NAME_param_1,
	.param .u32 NAME_param_2
)
{
	ret;
}
"""


def selftest_bundle(root, behaviours, cubins=True):
    """A bundle of one module whose kernels have the parameters of
    `struct S { char c; double d; float *p; short s; }, float *, int` and
    behave as `behaviours` says: {kernel: (llc's, ptxcc's)} (their cubins
    the same) or {kernel: (llc's, ptxcc's, llc-cubin's, ptxcc-cubin's)};
    `abi` adds a parameter, `loadfail` makes the JIT refuse the module. The
    fake backends read a "cubin" as PTX text with the same directives."""
    os.makedirs(os.path.join(root, "m"), exist_ok=True)
    files = (("llc", "ptx", 0), ("ptxcc", "ptx", 1)) + ((("llc", "cubin", 2), ("ptxcc", "cubin", 3)) if cubins else ())
    for flavour, kind, position in files:
        text = SELFTEST_HEADER
        for kernel, pair in behaviours.items():
            behaviour = pair[position if position < len(pair) else position - 2]
            if behaviour == "loadfail":
                text += "// fake-module: loadfail\n"
            entry = SELFTEST_ENTRY.replace("NAME", kernel)
            if behaviour == "abi":
                entry = entry.replace(f"{kernel}_param_2\n", f"{kernel}_param_2,\n\t.param .u32 {kernel}_extra\n")
            text += f"// fake-kernel {kernel}: {behaviour}\n" + entry
        with open(os.path.join(root, "m", f"{flavour}.{kind}"), "w") as f:
            f.write(text)
    paths = []
    for kernel in behaviours:
        path = os.path.join("m", f"{kernel}.json")
        with open(os.path.join(root, path), "w") as f:
            json.dump(selftest_spec(kernel), f)
        paths.append(path)
    module = {"id": "m", "source": "selftest", "ptx": {"llc": "m/llc.ptx", "ptxcc": "m/ptxcc.ptx"},
              "kernels": paths, "skipped": []}
    if cubins:
        module["cubin"] = {"llc": "m/llc.cubin", "ptxcc": "m/ptxcc.cubin"}
        module["ptxas"] = {"llc": "ok", "ptxcc": "ok"}
    manifest = {"format": FORMAT, "ptxas_version": "13.5", "modules": [module], "skipped_modules": []}
    with open(os.path.join(root, "manifest.json"), "w") as f:
        json.dump(manifest, f)


def selftest_in_process(root, tmp):
    """{kernel: (verdict, detail, extra)} of the bundle in `root`, its
    workers in this process on the fake backend (a sticky fault ends a
    worker: a new one goes on after it, told what failed, as the parent
    does)."""
    _, jobs = load_jobs(root)
    os.makedirs(tmp)
    events = []
    position, known = (0, 0), {}
    while True:
        if Worker(FakeBackend(), tmp, events.append).steps(jobs, position, known):
            break
        last = events[-1]
        position = (last["job"], last["run"] + 1) if last["run"] + 1 < len(RUNS) else (last["job"] + 1, 0)
        known = {e["run"]: e["status"] for e in events if e["ev"] == "end" and e["job"] == position[0]}
    outcomes = {(e["job"], e["run"]): e for e in events if e["ev"] == "end"}
    verdicts = {}
    for index, job in enumerate(jobs):
        runs = {r: outcomes[(index, r)] for r in range(len(RUNS)) if (index, r) in outcomes}
        dumps = [load_dump(tmp, index, r) for r in range(len(RUNS))]
        verdicts[job["kernel"]] = verdict_of(job, runs, dumps)
    return verdicts


def selftest_spec(kernel):
    # struct S { i8 c; double d; ptr p; i16 s; }: c@0, pad 1-7, d@8, p@16, s@24, pad 26-31.
    init = bytearray(b"\xee" * 32)
    init[0] = 3
    init[8:16] = struct.pack("<d", 0.5)
    init[16:24] = bytes(8)
    init[24:26] = struct.pack("<h", 6)
    # A probe knows what its kernel leaves: the struct's first bytes copied
    # into buffer 0 (FakeBackend's copy), bytes 96-103 left as written.
    expected = [{"buffer": 0, "offset": 0, "hex": init[:8].hex()},
                {"buffer": 0, "offset": 96, "hex": buffer_contents(11, 256)[96:104].hex()}]
    return {**({"expected": expected} if kernel.startswith("probe") else {}),
        "module": "m", "kernel": kernel, "grid": [2, 1, 1], "block": [32, 1, 1], "shared_bytes": 0,
        "buffers": [{"id": 0, "bytes": 256, "seed": 11, "of": "param 0 field @16"},
                    {"id": 1, "bytes": 256, "seed": 12, "of": "param 1"}],
        "params": [
            {"kind": "byval", "bytes": 32, "ptx_bytes": 32, "align": 8, "init": init.hex(),
             "pointers": [{"offset": 16, "buffer": 0}]},
            {"kind": "ptr", "bytes": 8, "ptx_bytes": 8, "init": bytes(8).hex(),
             "pointers": [{"offset": 0, "buffer": 1}]},
            {"kind": "int", "bytes": 4, "ptx_bytes": 4, "init": struct.pack("<i", 5).hex()},
        ],
    }


def selftest(fake_libcuda=None):
    failures = []

    def check(condition, what):
        print(("ok: " if condition else "FAILED: ") + what)
        if not condition:
            failures.append(what)

    # Packing: a byval struct with padding and a pointer field, a pointer, an int.
    spec = selftest_spec("k")
    addresses = [0x7F00_1234_5600, 0x7F00_ABCD_EF00]
    packed = [pack_param(p, addresses) for p in spec["params"]]
    expected = (b"\x03" + b"\xee" * 7 + struct.pack("<d", 0.5) + struct.pack("<Q", addresses[0])
                + struct.pack("<h", 6) + b"\xee" * 6)
    check(packed[0] == expected, f"byval struct packed with padding and pointer field: {packed[0].hex()}")
    check(packed[1] == struct.pack("<Q", addresses[1]), "pointer parameter is the buffer's address")
    check(packed[2] == struct.pack("<i", 5) + bytes(4), "int parameter padded to 8 bytes")

    # Inputs: words 0-15, deterministic.
    data = buffer_contents(7, 4096)
    check(data == buffer_contents(7, 4096) and data != buffer_contents(8, 4096), "buffers depend on their seed only")
    check(all(data[i] < 16 and data[i + 1 : i + 4] == b"\0\0\0" for i in range(0, 4096, 4)),
          "buffers hold 32-bit words 0-15")

    # PTX parsing.
    ptx = SELFTEST_HEADER + SELFTEST_ENTRY.replace("NAME", "k")
    check(entries(ptx) == {"k": [32, 8, 4]}, f"entry parameter sizes: {entries(ptx)}")
    check(entries(".visible .entry e()\n{\n ret;\n}") == {"e": []}, "an entry without parameters")
    check(global_names(ptx) == ["counter", "table"], f"globals (not .extern): {global_names(ptx)}")

    # Verdicts, in process, on the fake backend.
    root = tempfile.mkdtemp(prefix="gpu-diff-selftest.")
    try:
        behaviours = {"same": ("copy", "copy"), "differs": ("copy", "differ"), "racy": ("racy", "racy"),
                      "ptxcc_faults": ("copy", "fault"), "both_fault": ("fault", "fault"),
                      "abi": ("copy", "abi")}
        selftest_bundle(root, behaviours)
        tmp = os.path.join(root, "tmp")
        FakeBackend.launches.clear()
        verdicts = selftest_in_process(root, tmp)
        launched = FakeBackend.launches[0][1]
        field, pointer = struct.unpack_from("<Q", launched[0], 16)[0], struct.unpack_from("<Q", launched[1])[0]
        check(launched[0][1:8] == b"\xee" * 7 and field >= FakeBackend.BASE and pointer >= FakeBackend.BASE
              and field != pointer, "launched: the struct's padding kept, its pointer field and the pointer "
              "parameter hold two device buffers' addresses")
        check(len(FakeBackend.launches) == 5 * 4 + 2 + 3,
              f"five runs per kernel, those after a failed reference skipped: {len(FakeBackend.launches)} launches")
        for kernel, want in (("same", "same"), ("differs", "differs"), ("racy", "same"),
                             ("ptxcc_faults", "launch error"), ("both_fault", "reference invalid"),
                             ("abi", "abi mismatch")):
            check(verdicts[kernel][0] == want, f"{kernel}: {verdicts[kernel][0]} ({first_line(verdicts[kernel][1])})")
        check(verdicts["differs"][2].get("first_difference", {}).get("offset") == 100
              and verdicts["differs"][2]["first_difference"]["region"] == "buffer 0 (param 0 field @16)",
              "the first difference is buffer 0 at byte 100")
        check(verdicts["racy"][2].get("masked_bytes") == 1, "a byte the reference changes run to run is masked")
        check(verdicts["same"][2].get("differing_bytes") == 0 and
              any(label.startswith("global counter") for label in load_dump(tmp, 0, 0)),
              "globals are compared too")
        check(verdicts["same"][2].get("agreement") == "all agree"
              and verdicts["same"][2].get("flavours") == "llc = ptxcc = llc-cubin = ptxcc-cubin"
              and verdicts["same"][2].get("cubin_verdict") == "same", "same: all four flavours agree")
        flavours = verdicts["both_fault"][2].get("flavours")
        check(flavours == "none ran (llc: launch error, ptxcc: skipped, llc-cubin: launch error, ptxcc-cubin: "
              "skipped)", f"both_fault: {flavours}")

        # The cubins: a difference only ptxas shows, the driver's JIT and
        # ptxas disagreeing on llc's PTX (the odd one out named), on both
        # PTX files alike, a reference only the cubin gives.
        shutil.rmtree(root)
        selftest_bundle(root, {"cubin_differs": ("copy", "copy", "copy", "differ"),
                               "jit_odd": ("differ", "copy", "copy", "copy"),
                               "both_split": ("copy", "copy", "differ", "differ"),
                               "jit_faults": ("fault", "fault", "copy", "copy"),
                               "probe": ("differ", "copy", "copy", "copy")})
        verdicts = selftest_in_process(root, os.path.join(root, "tmp"))
        verdict, detail, extra = verdicts["cubin_differs"]
        check(verdict == "differs" and detail.startswith("cubins (ptxas 13.5): buffer 0 (param 0 field @16) offset "
                                                         "100: llc-cubin ") and " ptxcc-cubin " in detail
              and extra["odd_one_out"] == "ptxcc-cubin"
              and extra["flavours"] == "llc = ptxcc = llc-cubin | ptxcc-cubin",
              f"a difference between the cubins only: {verdict}: {detail}; {extra.get('flavours')}")
        verdict, detail, extra = verdicts["jit_odd"]
        check(verdict == "differs" and extra["assembler_split"] == ["llc"] and extra["odd_one_out"] == "llc"
              and extra["flavours"] == "llc | ptxcc = llc-cubin = ptxcc-cubin"
              and extra["reference"].startswith("none: the driver's JIT and ptxas 13.5 disagree on llc's PTX; llc is "
                                                "the odd one out"),
              f"the JIT and ptxas disagree on llc's PTX: {extra.get('flavours')}; {extra.get('reference')}")
        verdict, detail, extra = verdicts["both_split"]
        check(verdict == "same" and extra["cubin_verdict"] == "same" and extra["agreement"] == "differ"
              and extra["assembler_split"] == ["llc", "ptxcc"] and extra["odd_one_out"] is None,
              f"both PTX files split alike: {verdict}, {extra.get('flavours')}")
        verdict, detail, extra = verdicts["jit_faults"]
        check(verdict == "reference invalid" and extra["cubin_verdict"] == "same"
              and extra["flavours"] == "llc-cubin = ptxcc-cubin (llc: launch error, ptxcc: skipped)",
              f"the JIT's reference faults, the cubins run: {verdict}, {extra.get('flavours')}")
        verdict, detail, extra = verdicts["probe"]
        check(extra.get("expected") == {"llc": False, "ptxcc": True, "llc-cubin": True, "ptxcc-cubin": True}
              and extra["reference"] == "the expected bytes (known when prepared): llc did not, ptxcc left them, "
              "llc-cubin left them, ptxcc-cubin left them", f"a probe's expected bytes: {extra.get('reference')}")
        del verdicts["probe"]
        results = [{"module": "m", "kernel": k, "verdict": v[0], "detail": v[1], **v[2]} for k, v in verdicts.items()]
        summary = summarize(results, {"ptxas_version": "13.5"}, None).splitlines()
        check("flavours: m jit_odd: llc | ptxcc = llc-cubin = ptxcc-cubin; none: the driver's JIT and ptxas 13.5 "
              "disagree on llc's PTX; llc is the odd one out (the other three agree)" in summary
              and summary[-2] == "gpu_diff: flavours (JIT and ptxas 13.5 cubins): 3 differ, 1 incomplete; the JIT "
              "and ptxas disagree on llc's PTX in 2, on ptxcc's in 2"
              and summary[-1] == "gpu_diff: 4 kernels (2 differs, 1 reference invalid, 1 same); 2 failing; 0 skipped "
              "when prepared", "the summary: flavours per kernel, then counted:\n  " + "\n  ".join(summary))

        # A bundle without cubins (prepared without ptxas): their runs are
        # skipped, nothing else changes.
        shutil.rmtree(root)
        selftest_bundle(root, {"same": ("copy", "copy"), "differs": ("copy", "differ")}, cubins=False)
        verdicts = selftest_in_process(root, os.path.join(root, "tmp"))
        check(verdicts["same"][0] == "same" and verdicts["differs"][0] == "differs"
              and "cubin_verdict" not in verdicts["same"][2] and verdicts["same"][2]["agreement"] == "all agree"
              and verdicts["same"][2]["flavours"] == "llc = ptxcc", "without cubins: the JIT pair alone")

        # --only: a subset of the modules and kernels.
        shutil.rmtree(root)
        selftest_bundle(root, {"same": ("copy", "copy"), "differs": ("copy", "differ"), "other": ("copy", "copy")})
        out = os.path.join(root, "out")
        status = run_bundle(argparse.Namespace(bundle=root, out=out, backend="fake", libcuda="", run_timeout=30.0,
                                               start_timeout=30.0, deadline=120.0, only=["m:same", "m:oth*"]))
        with open(os.path.join(out, "gpu-diff-results.json")) as f:
            got = {r["kernel"]: r["verdict"] for r in json.load(f)["results"]}
        check(got == {"same": "same", "other": "same"} and status == 0, f"--only m:same --only 'm:oth*': {got}")
        check(selected(["m"], "m", "k") and not selected(["m.O0"], "m", None)
              and selected(["*.O0:_Z4*"], "a.O0", "_Z4v") and not selected(["*.O0:_Z4*"], "a.O0", "_Z5v"),
              "--only's patterns")

        # The parent with worker processes: a hang is killed, a crash and a
        # load error are reported, the kernels after them still run.
        shutil.rmtree(root)
        behaviours = {"hangs": ("copy", "hang", "copy", "copy"), "crashes": ("copy", "crash"),
                      "reference_hangs": ("hang", "copy", "copy", "copy"), "prints": ("print", "print"),
                      "after": ("copy", "copy")}
        selftest_bundle(root, behaviours)
        out = os.path.join(root, "out")
        args = argparse.Namespace(bundle=root, out=out, backend="fake", libcuda="", run_timeout=3.0,
                                  start_timeout=30.0, deadline=120.0)
        status = run_bundle(args)
        with open(os.path.join(out, "gpu-diff-results.json")) as f:
            got = {r["kernel"]: r["verdict"] for r in json.load(f)["results"]}
        check(got == {"hangs": "hang", "crashes": "crash", "reference_hangs": "reference invalid", "prints": "same",
                      "after": "same"} and status == 1,
              f"workers: hang killed, crash reported, kernel output kept apart, later kernels run: {got}, "
              f"exit {status}")
        shutil.rmtree(root)
        selftest_bundle(root, {"first": ("hang", "copy"), "second": ("copy", "copy")})
        status = run_bundle(argparse.Namespace(bundle=root, out=out, backend="fake", libcuda="", run_timeout=30.0,
                                               start_timeout=30.0, deadline=1.5))
        with open(os.path.join(out, "gpu-diff-results.json")) as f:
            got = {r["kernel"]: r["verdict"] for r in json.load(f)["results"]}
        check(got == {"first": "not run", "second": "not run"} and status == 1,
              f"the deadline: what is left is not run, results still written: {got}")
        shutil.rmtree(root)
        selftest_bundle(root, {"loads": ("copy", "loadfail"), "fine": ("copy", "copy")})
        status = run_bundle(argparse.Namespace(bundle=root, out=out, backend="fake", libcuda="", run_timeout=30.0,
                                               start_timeout=30.0, deadline=120.0))
        with open(os.path.join(out, "gpu-diff-results.json")) as f:
            results = json.load(f)["results"]
        check([r["verdict"] for r in results] == ["load error", "load error"] and status == 1
              and "ptxas fatal" in results[0]["detail"], "a module the JIT refuses: load error with its log")

        # No driver: skipped, exit 2.
        args = argparse.Namespace(bundle=root, out=out, backend="cuda", libcuda="/nonexistent/libcuda.so.1",
                                  run_timeout=3.0, start_timeout=30.0, deadline=120.0)
        status = run_bundle(args)
        with open(os.path.join(out, "gpu-diff-summary.txt")) as f:
            check(status == 2 and f.read().startswith("no GPU: skipped"), "without libcuda: no GPU: skipped, exit 2")
        if fake_libcuda:
            selftest_libcuda(os.path.abspath(fake_libcuda), root, check)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"selftest: {'FAILED ' + str(len(failures)) if failures else 'passed'}")
    return 1 if failures else 0


def selftest_libcuda(libcuda, root, check):
    """The CUDA backend's ctypes calls against a pretend driver
    (test/e2e/Inputs/fake_libcuda.c): what a kernel receives, the JIT
    log, a fault that ends a worker."""
    shutil.rmtree(root, ignore_errors=True)
    selftest_bundle(root, {"same": ("copy", "copy")})
    _, jobs = load_jobs(root)
    tmp = os.path.join(root, "tmp")
    os.makedirs(tmp)
    events = []
    backend = CudaBackend(libcuda)
    check(backend.describe() == {"device": "fake libcuda", "driver": 12080, "compute_capability": "9.0",
                                 "stack_bytes_per_thread": STACK_BYTES},
          f"libcuda: the device described: {backend.describe()}")
    Worker(backend, tmp, events.append).steps(jobs, (0, 0))
    check([e["status"] for e in events if e["ev"] == "end"] == ["ok"] * 5, "libcuda: five runs")
    check(ctypes.c_int.in_dll(backend.lib, "fake_cubin_loads").value == 2,
          "libcuda: the two cubins loaded with cuModuleLoadData")
    for run in range(3, 5):
        check(load_dump(tmp, 0, run) == load_dump(tmp, 0, 0), f"libcuda: {RUNS[run]} received what llc did")
    dump = load_dump(tmp, 0, 0)
    received = dump["buffer 1 (param 1)"][:44]
    field = struct.unpack_from("<Q", received, 16)[0]
    expected = [pack_param(p, [field, 0]) for p in jobs[0]["params"]]
    pointer = struct.unpack_from("<Q", received, 32)[0]
    check(received[:32] == expected[0][:32] and received[40:44] == expected[2][:4] and field != 0
          and pointer != 0 and pointer != field,
          "libcuda: the kernel received the struct (padding, fields, its pointer field), the pointer, the int")
    check(dump["global counter"][:4] == struct.pack("<I", 1), "libcuda: globals are reset before each launch")
    out = os.path.join(root, "out")
    for behaviours, want in (({"faults": ("copy", "fault"), "after": ("copy", "copy")},
                              {"faults": "launch error", "after": "same"}),
                             ({"loads": ("copy", "loadfail")}, {"loads": "load error"})):
        shutil.rmtree(root)
        selftest_bundle(root, behaviours)
        status = run_bundle(argparse.Namespace(bundle=root, out=out, backend="cuda", libcuda=libcuda,
                                               run_timeout=30.0, start_timeout=30.0, deadline=120.0))
        with open(os.path.join(out, "gpu-diff-results.json")) as f:
            results = json.load(f)["results"]
        got = {r["kernel"]: r["verdict"] for r in results}
        check(got == want and status == 1, f"libcuda in workers: {got}")
        if "loads" in got:
            check("fake JIT log" in results[0]["detail"] and "CUDA_ERROR_INVALID_PTX" in results[0]["detail"],
                  "libcuda: the JIT's error log is reported")
        if "faults" in got:
            check("CUDA_ERROR_ILLEGAL_ADDRESS" in results[0]["detail"], "libcuda: the fault is reported")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bundle", nargs="?")
    parser.add_argument("out", nargs="?")
    parser.add_argument("--selftest", action="store_true", help="test the runner on a fake GPU and exit")
    parser.add_argument("--fake-libcuda", help="--selftest: also test the CUDA backend against this pretend "
                        "libcuda (test/e2e/Inputs/fake_libcuda.c, built)")
    parser.add_argument("--libcuda", default="libcuda.so.1")
    parser.add_argument("--backend", choices=["cuda", "fake"], default="cuda")
    parser.add_argument("--run-timeout", type=float, default=10.0, help="seconds one run (load + launch) may take")
    parser.add_argument("--start-timeout", type=float, default=60.0, help="seconds a worker may take to start")
    parser.add_argument("--deadline", type=float, default=200.0,
                        help="seconds after which no new run starts (results are still written)")
    parser.add_argument("--only", action="append", metavar="MODULE[:KERNEL]",
                        help="run only these modules (or kernels of them); shell patterns; may be repeated")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tmp", help=argparse.SUPPRESS)
    parser.add_argument("--start", default="0:0", help=argparse.SUPPRESS)
    parser.add_argument("--known", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.selftest:
        return selftest(args.fake_libcuda)
    if not args.bundle or (not args.out and not args.worker):
        parser.error("BUNDLE and OUT are required")
    if args.worker:
        return worker_main(args)
    return run_bundle(args)


if __name__ == "__main__":
    sys.exit(main())
