# lit configuration for ptxcc. Run through `cargo xtask test`, or by hand:
#   PTXCC_OPT=target/debug/ptxcc-opt /usr/lib/llvm-22/bin/lit -sv test
import os
import sys

import lit.formats

config.name = "ptxcc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test", ".cu", ".ll"]
config.excludes = ["Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, "Output")

llvm_bin = os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin")
repo = os.path.dirname(config.test_source_root)
ptxcc_opt = os.path.abspath(os.environ.get("PTXCC_OPT", os.path.join(repo, "target", "debug", "ptxcc-opt")))
if not os.path.exists(ptxcc_opt):
    lit_config.fatal(f"ptxcc-opt not found at {ptxcc_opt}: build it or set PTXCC_OPT")

config.environment["PATH"] = os.pathsep.join([llvm_bin, config.environment.get("PATH", os.environ["PATH"])])
# Keep the tests' output stable.
config.environment["NO_COLOR"] = "1"
# An optimization's internal error is an error here, never the warning and
# fallback users get in release builds: the suite must see every bug
# (promote-local-arrays' fallback, docs/dev/architecture.md).
config.environment["PTXCC_FALLBACK"] = "error"

# Tests verify after every pass (the driver's default verifies the input and
# the output only); scripts that run the driver themselves get its path.
config.substitutions.append(("%ptxcc-opt-path", ptxcc_opt))
config.substitutions.append(("%ptxcc-opt", f"{ptxcc_opt} --verify-each"))
config.substitutions.append(("%repo", repo))
config.substitutions.append(("%llvm-bin", llvm_bin))
config.substitutions.append(
    # `llc` from PATH: with ptxas, the checking wrapper (below).
    ("%llc-sm90", "llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx80")
)
config.substitutions.append(
    ("%opt-O3-sm90", f"{llvm_bin}/opt -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx80")
)
config.substitutions.append(("%to-llvmir", f"{llvm_bin}/mlir-translate --mlir-to-llvmir"))
config.substitutions.append(
    (
        "%clang-cuda",
        f"{llvm_bin}/clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -nocudainc -nocudalib "
        "-Xclang -target-feature -Xclang +ptx80",
    )
)
# Upstream's GPU lowering, stopped before gpu-module-to-binary (its pass
# list is in scripts/gpu_module.py, shared with test/memcheck).
sys.path.insert(0, os.path.join(repo, "scripts"))
from gpu_module import GPU_LOWER_TO_NVVM as gpu_lower_to_nvvm  # noqa: E402

config.substitutions.append(("%gpu-lower-to-nvvm", f"{llvm_bin}/mlir-opt --pass-pipeline='{gpu_lower_to_nvvm}'"))
config.substitutions.append(
    (
        "%gpu-binary-ptx",
        f"{llvm_bin}/mlir-opt --gpu-module-to-binary=format=isa | python3 {repo}/scripts/gpu_binary_ptx.py "
        f"| python3 {repo}/scripts/ptxas_check.py",
    )
)
# FileCheck, not, mlir-opt, mlir-translate, llc and clang come from llvm_bin
# (first on PATH), never from elsewhere on the machine.
for tool in ["FileCheck", "not", "mlir-opt", "mlir-translate", "llc", "clang", "opt", "llvm-as", "llvm-link"]:
    if not os.path.exists(os.path.join(llvm_bin, tool)):
        lit_config.fatal(f"{tool} not found in {llvm_bin}")

# NVIDIA's tools (scripts/nvidia_tools.py; `cargo xtask test` downloads them
# and passes their root as PTXCC_NVIDIA): features, substitutions, and the
# assembler check of every PTX the suite makes. Every `llc` a test runs goes
# through scripts/ptxas_check.py (a wrapper first on PATH): a ptxas error or
# warning on llc's PTX fails the RUN line. Tests pipe ptxcc-opt's
# --emit=ptx through %ptxas-check, the same check as a filter.
from nvidia_tools import find_tools  # noqa: E402

nvidia = find_tools()
config.substitutions.append(("%ptxas-check", f"python3 {repo}/scripts/ptxas_check.py"))
if nvidia.ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", nvidia.ptxas))
    if nvidia.root:
        config.environment["PTXCC_NVIDIA"] = nvidia.root
    wrappers = os.path.join(config.test_exec_root, ".ptxas-wrappers")
    os.makedirs(wrappers, exist_ok=True)
    with open(os.path.join(wrappers, "llc"), "w") as f:
        f.write(f'#!/bin/sh\nexec python3 "{repo}/scripts/ptxas_check.py" --llc "{llvm_bin}/llc" "$@"\n')
    os.chmod(os.path.join(wrappers, "llc"), 0o755)
    config.environment["PATH"] = os.pathsep.join([wrappers, config.environment["PATH"]])
else:
    lit_config.note("no ptxas (scripts/nvidia_tools.py ensure): the PTX the tests make is not assembled")
if nvidia.nvdisasm:
    config.available_features.add("nvdisasm")
    config.substitutions.append(("%nvdisasm", nvidia.nvdisasm))
if nvidia.nvcc:
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", " ".join(nvidia.nvcc_command())))

# Public GPU code: NVIDIA Warp's generated CUDA (scripts/warp_corpus.py;
# `cargo xtask test` installs Warp and generates the sample's modules, or
# the test is UNSUPPORTED).
from warp_corpus import find_corpus  # noqa: E402

if find_corpus(sample=True):
    config.available_features.add("warp")
    config.substitutions.append(("%warp-corpus", f"python3 {repo}/scripts/warp_corpus.py"))
else:
    lit_config.note("no Warp corpus (scripts/warp_corpus.py generate --sample): test/realworld is UNSUPPORTED")

# The MLIR pass plugin (`cargo xtask plugin`; `cargo xtask test` builds it and
# passes its path): tests that load it into upstream mlir-opt need it.
ptxcc_plugin = os.environ.get("PTXCC_PLUGIN")
if ptxcc_plugin and os.path.exists(ptxcc_plugin):
    config.available_features.add("ptxcc-plugin")
    config.substitutions.append(("%ptxcc-plugin", os.path.abspath(ptxcc_plugin)))
