"""Fixtures of the Python package's tests: tsmlir-compile and the shared
models it writes (compiled once per session into a temporary folder).

TSMLIR_BUILD_DIR (set by test/python/pytest.test) is the build whose tools,
runtime and package (build/python_packages/tsmlir) the tests use.
"""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("TSMLIR_BUILD_DIR", os.path.join(ROOT, "build"))
# The package as the build lays it out (python/tsmlir's modules and the
# _native extension beside them).
sys.path.insert(0, os.path.join(BUILD, "python_packages"))
os.environ.setdefault("TSMLIR_RUNTIME_DIR", os.path.join(BUILD, "lib"))
# Every CUDA call of this process goes to the runtime tests' fake driver
# (host memory, kernels not executed): the loader's CUDA path runs without
# a GPU. Set before the runtime first opens a driver.
os.environ.setdefault("TSMLIR_CUDA_DRIVER", os.path.join(BUILD, "lib", "libfakecuda.so"))

SCALE_ADD = """graph(%x.1 : Tensor,
      %y.1 : Tensor,
      %a.1 : float):
  %3 : int = prim::Constant[value=1]()
  %4 : Tensor = aten::mul(%x.1, %a.1)
  %5 : Tensor = aten::add(%4, %y.1, %3)
  %6 : Tensor = aten::gt(%5, %a.1)
  %7 : (Tensor, Tensor) = prim::TupleConstruct(%5, %6)
  return (%7)
"""

# An int argument fixed at compile time and a reduction to a number.
SUM_DIM = """graph(%x.1 : Tensor,
      %dim.1 : int):
  %2 : NoneType = prim::Constant()
  %3 : bool = prim::Constant[value=0]()
  %4 : int[] = prim::ListConstruct(%dim.1)
  %5 : Tensor = aten::sum(%x.1, %4, %3, %2)
  %6 : int = aten::size(%x.1, %dim.1)
  %7 : (Tensor, int) = prim::TupleConstruct(%5, %6)
  return (%7)
"""


def compile_graph(tmp, name, text, inputs, target="cpu"):
    graph = tmp / (name + ".txt")
    graph.write_text(text)
    model = tmp / (name + ".so")
    cmd = [os.path.join(BUILD, "bin", "tsmlir-compile"), str(graph), "--shared",
           "-o", str(model), "--target", target] + ["--input=" + i for i in inputs]
    result = subprocess.run(cmd, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return str(model)


@pytest.fixture(scope="session")
def models(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("models")
    return {
        "scale_add": compile_graph(tmp, "scale_add", SCALE_ADD,
                                   ["f32[2,3]", "f32[2,3]", "float"]),
        "scale_add_cuda": compile_graph(tmp, "scale_add_cuda", SCALE_ADD,
                                        ["f32[2,3]", "f32[2,3]", "float"], "cuda"),
        "sum_dim": compile_graph(tmp, "sum_dim", SUM_DIM, ["f64[4,5]", "1"]),
        "big": compile_graph(tmp, "big", SCALE_ADD,
                             ["f32[256,1024]", "f32[256,1024]", "float"]),
    }
