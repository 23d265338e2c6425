"""tsmlir as a torch.compile backend (PyTorch 2 and later).

    import tsmlir.dynamo                         # registers "tsmlir"
    fast = torch.compile(model, backend="tsmlir")

TorchDynamo hands the backend each FX graph it captures with example
inputs; the backend traces it to TorchScript (torch.jit.trace of the
GraphModule), compiles that with tsmlir (tsmlir.compile, specialised for the
example inputs' shapes and dtypes) and returns the compiled callable, which
gives FX's outputs back as a tuple. A graph tsmlir cannot compile falls back
to the GraphModule itself, with a warning naming tsmlir's diagnostic.
"""
import warnings

from .errors import CompileError


def _torch():
    import torch
    major = int(torch.__version__.split(".")[0])
    if major < 2 or not hasattr(torch, "compile"):
        raise CompileError(
            "torch.compile backends need PyTorch 2 or later; this PyTorch is "
            "%s (tsmlir.compile works with it)" % torch.__version__)
    return torch


def backend(gm, example_inputs, strategy="nnc"):
    """The torch.compile backend: `gm` (an FX GraphModule) compiled by
    tsmlir for `example_inputs`, or `gm` itself when tsmlir cannot."""
    torch = _torch()
    from . import compile as tsmlir_compile
    device = "cuda" if any(getattr(t, "is_cuda", False) for t in example_inputs) else "cpu"
    try:
        traced = torch.jit.trace(gm, tuple(example_inputs), check_trace=False,
                                 strict=False)
        compiled = tsmlir_compile(traced, example_inputs=example_inputs,
                                  device=device, strategy=strategy)
    except (CompileError, RuntimeError) as error:
        warnings.warn("tsmlir: running this graph in PyTorch: %s" % error)
        return gm.forward

    def run(*args):
        out = compiled(*args)
        return out if isinstance(out, tuple) else (out,)

    return run


def register(name="tsmlir"):
    """Registers `backend` with TorchDynamo as `name`."""
    torch = _torch()
    registry = torch._dynamo.backends.registry
    if name not in registry.list_backends(exclude_tags=()):
        registry.register_backend(backend, name=name)


try:
    register()
except (CompileError, ImportError, AttributeError):
    pass  # PyTorch 1: tsmlir.compile, not torch.compile
