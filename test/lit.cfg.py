# -*- Python -*-
# The tsmlir lit suite: `ninja check-tsmlir` (or `lit build/test`).

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "TSMLIR"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tsmlir_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py", "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%tsmlir_src", config.tsmlir_src_root))
config.substitutions.append(("%tsmlir_obj", config.tsmlir_obj_root))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
# FileCheck, not, count, split-file come from LLVM's tools directory.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# Scripts under Inputs/ call the tsmlir tools by name.
llvm_config.with_environment("PATH", config.tsmlir_tools_dir, append_path=True)

tool_dirs = [config.tsmlir_tools_dir, config.llvm_tools_dir]
tools = ["tsmlir-compile", "tsmlir-opt", "tsmlir-pt-dump", "tsmlir-run",
         "tsmlir-translate", "tsmlir-ts-source"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The C and C++ compilers that build the examples and programs linking
# compiled models (LLVM's clang, which the build uses too), and where the
# build puts libtsmlir_runtime.a and libtsmlir_cuda_runtime.so.
#
# In a sanitised build (TSMLIR_ENABLE_ASAN_UBSAN or TSMLIR_ENABLE_TSAN) they
# are small wrappers that add the build's sanitizer flags, so that test
# programs link the sanitised runtime and are checked with it.
def compiler(name):
    path = os.path.join(config.llvm_tools_dir, name)
    if not config.tsmlir_sanitizer:
        return path
    wrapper_dir = os.path.join(config.tsmlir_obj_root, "test", "sanitized-cc")
    os.makedirs(wrapper_dir, exist_ok=True)
    wrapper = os.path.join(wrapper_dir, name)
    text = '#!/bin/sh\nexec "%s" %s "$@"\n' % (path,
                                               config.tsmlir_sanitizer_flags)
    if not os.path.exists(wrapper) or open(wrapper).read() != text:
        with open(wrapper, "w") as f:
            f.write(text)
        os.chmod(wrapper, 0o755)
    return wrapper


config.substitutions.append(("%clangxx", compiler("clang++")))
config.substitutions.append(("%clang", compiler("clang")))
config.substitutions.append(
    ("%tsmlir_libs", os.path.join(config.tsmlir_obj_root, "lib")))

# Sanitised builds: the feature `asan` or `tsan`, and the options every tool
# runs with. Reports go to files under sanitizer-reports/ in the build
# (scripts/sanitize.sh counts them), as well as failing the program, so that a
# report behind a RUN line that expects a failure (`not ...`) is still seen.
# Allocations that cannot be satisfied return null, as without sanitizers, so that
# the tools' "cannot allocate" diagnostics are what the tests see. TSan does
# not report the mallocs of LLVM's crash handler, which prints a stack trace
# from the signal handler when compiled code aborts as it should (a
# data-movement case): it would turn that abort into TSan's exit status. Its
# suppressions are in test/sanitizers/tsan.supp.
if config.tsmlir_sanitizer:
    config.available_features.add(
        "tsan" if config.tsmlir_sanitizer == "TSan" else "asan")
    config.environment["TSMLIR_SANITIZER"] = config.tsmlir_sanitizer
    reports = os.path.join(config.tsmlir_obj_root, "sanitizer-reports")
    os.makedirs(reports, exist_ok=True)
    symbolizer = os.path.join(config.llvm_tools_dir, "llvm-symbolizer")
    common = "log_path=%s:external_symbolizer_path=%s" % (
        os.path.join(reports, "report"), symbolizer)
    defaults = {
        "ASAN_OPTIONS": common + ":detect_leaks=1:allocator_may_return_null=1"
                        ":detect_stack_use_after_return=1"
                        ":check_initialization_order=1:strict_init_order=1",
        "UBSAN_OPTIONS": common + ":print_stacktrace=1:halt_on_error=1",
        "LSAN_OPTIONS": common,
        "TSAN_OPTIONS": common + ":halt_on_error=1:second_deadlock_stack=1"
                        ":allocator_may_return_null=1:report_signal_unsafe=0"
                        ":suppressions=" +
                        os.path.join(config.tsmlir_src_root, "test",
                                     "sanitizers", "tsan.supp"),
    }
    for name, value in defaults.items():
        extra = os.environ.get(name)
        config.environment[name] = value + (":" + extra if extra else "")

# The libFuzzer targets (libFuzzer + ASan, clang only): TSMLIR_ENABLE_FUZZER.
if config.tsmlir_enable_fuzzer:
    config.available_features.add("fuzzer")
    llvm_config.add_tool_substitutions(
        ["torchscript-import-fuzzer", "npy-fuzzer", "safetensors-fuzzer",
         "pipeline-fuzzer", "pickle-fuzzer", "ts-source-fuzzer"], tool_dirs)

# A Python with PyTorch and numpy (Debian's python3-torch lives under
# /usr/bin/python3) runs the tests that check rewritten graphs in PyTorch.
import subprocess


def find_python(modules):
    """The first Python that imports `modules`, or None."""
    for candidate in [config.python_executable, "/usr/bin/python3"]:
        try:
            if subprocess.run([candidate, "-c", "import " + modules],
                              capture_output=True).returncode == 0:
                return candidate
        except OSError:
            pass
    return None


# %torch_python runs graphs in PyTorch; %numpy_python compares .npy files.
# Without them, the tests that compare with PyTorch say UNSUPPORTED. Under CI
# (CI=true) or with TSMLIR_REQUIRE_TORCH=1 that would turn twenty tests off
# with the run still green, so there a missing torch or numpy is a
# configuration error that fails the run: only the GPU tests (cuda-device,
# ptxas) may be unsupported there.
require_torch = (os.environ.get("CI", "").lower() == "true" or
                 os.environ.get("TSMLIR_REQUIRE_TORCH", "") not in ("", "0"))
for feature, modules in [("torch", "torch, numpy"), ("numpy", "numpy"),
                         ("pytest", "torch, numpy, pytest")]:
    python = find_python(modules)
    if python:
        config.available_features.add(feature)
        config.substitutions.append(("%" + feature + "_python", python))
    elif require_torch:
        lit_config.fatal(
            "no Python imports %s (tried %s), and CI or "
            "TSMLIR_REQUIRE_TORCH asks for the tests that need them: install "
            "python3-torch, python3-numpy and python3-pytest (scripts/setup.sh)"
            % (modules, " and ".join(
                filter(None, [config.python_executable, "/usr/bin/python3"]))))

# Memory: the case of 2^31 + 16 elements (e2e/edge-cases-big-cpu.test) holds
# about 6 GiB; it runs where 8 GiB are available and is UNSUPPORTED elsewhere.
def mem_available_gib():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) / (1 << 20)
    except OSError:
        pass
    return 0


# libtsmlir_kernels (oneDNN) is built where libdnnl-dev is installed.
if os.path.exists(os.path.join(config.tsmlir_obj_root, "lib",
                               "libtsmlir_kernels.so")):
    config.available_features.add("library-kernels")

if mem_available_gib() >= 8:
    config.available_features.add("memory-8g")

# Timeouts: a test that hangs fails with its name after this many seconds
# (TSMLIR_TEST_TIMEOUT; lit's --timeout overrides it) instead of stalling the
# run. The longest, e2e/opinfo.test, takes about 19 minutes on 2 cores
# (more beside other work), the others a few minutes, under ASan too; the
# drivers also time each case (CASE_TIMEOUT in e2e/Inputs/harness.py).
# lit needs psutil to enforce it (python3-psutil, scripts/setup.sh).
if not lit_config.maxIndividualTestTime:
    lit_config.maxIndividualTestTime = int(
        os.environ.get("TSMLIR_TEST_TIMEOUT", "2400"))

# GPU: ptxas (the CUDA toolkit) assembles generated PTX; a CUDA device runs
# it. Tests that need them say UNSUPPORTED (skipped) without them.
import shutil

ptxas = shutil.which("ptxas") or (
    "/usr/local/cuda/bin/ptxas"
    if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))


def has_cuda_device():
    """Whether the CUDA driver loads and reports a device."""
    import ctypes
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    count = ctypes.c_int(0)
    return (cuda.cuInit(0) == 0 and
            cuda.cuDeviceGetCount(ctypes.byref(count)) == 0 and
            count.value > 0)


if has_cuda_device():
    config.available_features.add("cuda-device")
# A CUDA driver on host memory (runtime/test/FakeCuda.cpp): runs the host side
# of compiled GPU code (module loading, launches, copies) without a GPU.
config.substitutions.append(
    ("%fake_cuda_driver", os.path.join(config.tsmlir_obj_root, "lib", "libfakecuda.so")))
