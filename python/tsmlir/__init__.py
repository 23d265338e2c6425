"""tsmlir for PyTorch users.

    import tsmlir
    fn = tsmlir.compile(model, example_inputs=(x,))   # in process, no Python
    out = fn(x)                                       # at run time; torch or numpy
    model = tsmlir.load("model.pt")    # or graph.txt, module.mlir, model.so
    tsmlir.export(model, (x,), "model.pt")
    print(tsmlir.fusion_report(model, (x,)))

Graphs, .pt archives and ts-dialect MLIR are compiled in process by the
_native extension (tsmlir/jit.py), for each new signature of their
arguments. Shared models (`tsmlir-compile --shared`) are loaded through
their C ABI (tsmlir/shared.py) and need neither LLVM nor a tsmlir build.
"""
import os
import zipfile

from . import frontend
from .errors import CompileError, RuntimeError  # noqa: A004
from .jit import JitFunction, native
from .shared import SharedModel, cuda_runtime

__all__ = ["CompileError", "JitFunction", "RuntimeError", "SharedModel",
           "compile", "cuda_runtime", "export", "fusion_report", "load"]


def load(path, entry=None, params=None, strategy="nnc", device="cpu",
         threads=1):
    """A callable model from `path`: a shared model of `tsmlir-compile
    --shared` (.so), loaded directly; a TorchScript archive (.pt, .pth, any
    zip: its method `entry`, default forward), TorchScript IR text (with the
    module's attributes from the safetensors file `params`) or ts-dialect
    MLIR (.mlir: its function `entry`, default main), compiled in process
    for each new signature of its arguments."""
    if not os.path.exists(path):
        raise CompileError("%s: no such file" % path)
    if path.endswith(".so"):
        return SharedModel(path)
    name = os.path.basename(path)
    if path.endswith((".pt", ".pth")) or zipfile.is_zipfile(path):
        graph = native().Graph(path, "pt", name, entry or "")
    else:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        kind = "mlir" if path.endswith(".mlir") else "text"
        graph = native().Graph(text, kind, path, entry or "", params or "")
    return JitFunction(graph, name, strategy=strategy, device=device,
                       threads=threads)


def compile(fn_or_module, example_inputs=None, device="cpu", strategy="nnc",  # noqa: A001
            backward=False, threads=1):
    """`fn_or_module` (a Python function, a torch.nn.Module, or their
    scripted or traced forms) compiled by tsmlir: a JitFunction that takes
    torch tensors or numpy arrays and returns the same kind, specialised
    for each new signature of its arguments. With `example_inputs` the first
    specialisation is compiled now, so that an unsupported op is reported
    here (tsmlir.CompileError, naming it and its location)."""
    if backward:
        raise CompileError(
            "backward=True: tsmlir.compile does not yet build backward "
            "graphs; the forward graph compiles with backward=False")
    kind, source, name = frontend.graph_of(fn_or_module, example_inputs)
    try:
        graph = native().Graph(source, kind, name)
    finally:
        if kind == "pt":
            os.remove(source)
    fn = JitFunction(graph, name, strategy=strategy, device=device,
                     threads=threads)
    if example_inputs is not None:
        fn.specialize(*example_inputs)
    return fn


def export(fn_or_module, example_inputs, path):
    """Writes `fn_or_module` where tsmlir (and tsmlir-compile) reads it: a
    .pt archive, or TorchScript IR text with a module's parameters in
    `<path>.safetensors`. Returns the paths written."""
    return frontend.export(fn_or_module, example_inputs, path)


def fusion_report(fn_or_module, example_inputs, strategy="all", format="text"):  # noqa: A002
    """The fusion report (docs/fusion-report.md) of `fn_or_module` (or a
    path tsmlir.load takes) specialised for `example_inputs`: the groups each
    strategy forms, their memory traffic, and every op left unfused with its
    reason. `format` is text, json or dot."""
    if isinstance(fn_or_module, JitFunction):
        fn = fn_or_module
    elif isinstance(fn_or_module, str):
        fn = load(fn_or_module)
    else:
        fn = compile(fn_or_module)
    return fn.fusion_report(*example_inputs, strategy=strategy, format=format)
