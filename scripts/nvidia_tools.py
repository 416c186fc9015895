#!/usr/bin/env python3
"""NVIDIA's assembler, disassembler and compiler, from PyPI, for the tests.

Usage:
    scripts/nvidia_tools.py ensure [--offline]   set them up if missing; print the root
    scripts/nvidia_tools.py where                print the root, exit 1 if there is none

`ptxas` (PTX -> SASS, with `-v` figures), `nvdisasm` (SASS listings) and
`nvcc` + `cicc` (NVIDIA's CUDA compiler, the system the seeds describe) come
as wheels from PyPI and run on machines without a GPU. `ensure` downloads
the wheels pinned in WHEELS (by version and sha256; pip checks the hashes)
once into a cache outside the checkout, unpacks them into one CUDA-shaped
folder (`bin/ptxas`, `bin/nvcc`, `nvvm/bin/cicc`, `include/`) and prints it.
With a warm cache it needs no network. When PyPI cannot be reached it says
so on stderr and exits 2: the tests that need the tools then report
UNSUPPORTED (lit's `ptxas`, `nvdisasm` and `nvcc` features are missing).

The cache is `$PTXCC_CACHE`, else `$XDG_CACHE_HOME/ptxcc`, else
`~/.cache/ptxcc`. `$PTXCC_NVIDIA` names a root to use instead (a CUDA
installation, say); tools on `$PATH` are used when there is neither. Their
licence allows this use; they are never committed.

`find_tools()` is what lit.cfg.py and the comparison scripts import.
"""

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import Optional

# The CUDA release the figures in docs/guide/measurements.md were measured with.
VERSION = "13.5.37"

# (requirement, sha256 of its manylinux x86_64 wheel)
WHEELS = [
    ("nvidia-cuda-nvcc==13.5.37", "f5c4f7ead5d964fb4af42bbf1e6d3ec3c1e6e9d83b53749f691d387e7fcaa3a7"),
    ("nvidia-nvvm==13.5.37", "c41bfa362e407405163f103c2229f0765f8cc2ed7d148b754dc77f228bf7e070"),
    ("nvidia-cuda-crt==13.5.37", "e898b7f73d3035fa89915a3f7bf3b54a73e90249746111aed295822c4729bb29"),
    ("nvidia-cuda-runtime==13.5.37", "df2b79a8852f10d1fef8c848489c49eebb5754051bf870202a862831412b179d"),
    ("nvidia-cuda-cccl==13.3.5.0.6", "d5230098fa2df5021e1a00c0c4eee41797671a91119d31e892463e5ccf3ee326"),
    ("nvidia-cuda-nvdisasm==13.5.37", "d3fdbdd49fa53e2e4aacd3db8259d052bd2b049ececdcb69e92e083c6728e7ca"),
]

# Inside the unpacked wheels: the CUDA-shaped folder.
LAYOUT = os.path.join("nvidia", "cu13")

# Written last: a root without it is a half-finished unpack.
STAMP = ".ptxcc-complete"


@dataclass
class Tools:
    """Paths of the tools found; a missing tool is None."""

    root: Optional[str]
    ptxas: Optional[str]
    nvdisasm: Optional[str]
    nvcc: Optional[str]

    def nvcc_command(self):
        """nvcc with the headers of the root (cccl's too), or None."""
        if not self.nvcc:
            return None
        command = [self.nvcc]
        if self.root:
            include = os.path.join(self.root, "include")
            command += [f"-I{include}", f"-I{os.path.join(include, 'cccl')}"]
        return command


def cache_dir():
    """Where downloaded tools live, outside any checkout."""
    if os.environ.get("PTXCC_CACHE"):
        return os.environ["PTXCC_CACHE"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "ptxcc")


def cached_root():
    """The unpacked root of VERSION in the cache."""
    return os.path.join(cache_dir(), f"nvidia-{VERSION}")


def executable(path):
    return path if path and os.path.isfile(path) and os.access(path, os.X_OK) else None


def tools_in(root):
    """The tools of a CUDA-shaped root."""
    bin_dir = os.path.join(root, "bin")
    return Tools(root, *(executable(os.path.join(bin_dir, name)) for name in ("ptxas", "nvdisasm", "nvcc")))


def find_tools():
    """The tools: $PTXCC_NVIDIA, else the cache, else $PATH."""
    if os.environ.get("PTXCC_NVIDIA"):
        return tools_in(os.environ["PTXCC_NVIDIA"])
    if os.path.exists(os.path.join(cached_root(), STAMP)):
        return tools_in(cached_root())
    return Tools(None, shutil.which("ptxas"), shutil.which("nvdisasm"), shutil.which("nvcc"))


def unpack(wheel, into):
    """Unpacks a wheel (a zip file), keeping nothing but files."""
    import zipfile

    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(into)


def ensure(offline=False):
    """Sets the tools up in the cache if missing; returns the root or None."""
    root = cached_root()
    if os.path.exists(os.path.join(root, STAMP)):
        return root
    if offline:
        print(f"nvidia_tools: no NVIDIA tools in {root}, and --offline", file=sys.stderr)
        return None
    os.makedirs(cache_dir(), exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache_dir(), prefix="nvidia-download.") as tmp:
        requirements = os.path.join(tmp, "requirements.txt")
        with open(requirements, "w") as f:
            for requirement, digest in WHEELS:
                f.write(f"{requirement} --hash=sha256:{digest}\n")
        wheels = os.path.join(tmp, "wheels")
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                   "--platform", "manylinux2014_x86_64", "--platform", "manylinux_2_17_x86_64",
                   "--platform", "manylinux2010_x86_64", "--platform", "manylinux_2_12_x86_64",
                   "--require-hashes", "-r", requirements, "-d", wheels, "--timeout", "30", "--retries", "2"]
        print(f"nvidia_tools: downloading NVIDIA's tools {VERSION} from PyPI into {root}", file=sys.stderr)
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            last = (result.stderr.strip().splitlines() or ["pip failed"])[-1]
            print(f"nvidia_tools: cannot download NVIDIA's tools from PyPI (is it reachable?): {last}",
                  file=sys.stderr)
            return None
        unpacked = os.path.join(tmp, "unpacked")
        for name in sorted(os.listdir(wheels)):
            unpack(os.path.join(wheels, name), unpacked)
        layout = os.path.join(unpacked, LAYOUT)
        # zip files keep no modes: every file in a bin folder is a program.
        for folder in ("bin", os.path.join("nvvm", "bin")):
            for dirpath, _, files in os.walk(os.path.join(layout, folder)):
                for name in files:
                    path = os.path.join(dirpath, name)
                    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        with open(os.path.join(layout, STAMP), "w") as f:
            f.write("".join(f"{requirement}\n" for requirement, _ in WHEELS))
        shutil.rmtree(root, ignore_errors=True)
        os.replace(layout, root)
    return root


def main():
    args = sys.argv[1:]
    if args[:1] == ["ensure"]:
        root = ensure(offline="--offline" in args[1:])
        if root is None:
            return 2
        print(root)
        return 0
    if args == ["where"]:
        tools = find_tools()
        if tools.ptxas is None:
            print("nvidia_tools: no ptxas (run `scripts/nvidia_tools.py ensure`)", file=sys.stderr)
            return 1
        print(tools.root or os.path.dirname(os.path.dirname(tools.ptxas)))
        return 0
    print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
