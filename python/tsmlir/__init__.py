"""tsmlir for PyTorch users.

    import tsmlir
    model = tsmlir.load("model.so")   # a model from tsmlir-compile --shared
    out = model(x)                    # torch tensors or numpy arrays

Shared models are loaded through their C ABI (tsmlir/shared.py); loading
needs neither LLVM nor a tsmlir build.
"""
import os

from .errors import CompileError, RuntimeError  # noqa: A004
from .shared import SharedModel, cuda_runtime

__all__ = ["CompileError", "RuntimeError", "SharedModel", "cuda_runtime", "load"]


def load(path):
    """A callable model from `path`. Shared objects of `tsmlir-compile
    --shared` (.so) are loaded directly."""
    if path.endswith(".so"):
        return SharedModel(path)
    if not os.path.exists(path):
        raise CompileError("%s: no such file" % path)
    raise CompileError("%s: tsmlir.load takes shared models (.so) from "
                       "tsmlir-compile --shared; graphs and .pt archives go "
                       "through tsmlir-compile first" % path)
