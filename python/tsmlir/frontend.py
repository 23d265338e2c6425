"""From PyTorch objects and files to the graphs tsmlir imports.

A scripted module (torch.jit.ScriptModule) goes through a .pt archive, as
torch.jit.save writes it: its parameters and attributes come with it. A
nn.Module is scripted first (traced with `example_inputs` where scripting
fails); a function likewise, and a scripted or traced function goes through
its graph's text, calls inlined.
"""
import json
import os
import struct
import tempfile

from .errors import CompileError


def _torch():
    try:
        import torch
    except ImportError:
        raise CompileError("compiling a Python function or module needs "
                           "PyTorch (python3-torch)") from None
    return torch


def script(obj, example_inputs=None):
    """`obj` as TorchScript: a ScriptModule or ScriptFunction as is, else
    torch.jit.script(obj), else (when that fails and `example_inputs` are
    given) torch.jit.trace(obj, example_inputs)."""
    torch = _torch()
    if isinstance(obj, (torch.jit.ScriptModule, torch.jit.ScriptFunction)):
        return obj
    try:
        return torch.jit.script(obj)
    except Exception as scripting:  # noqa: BLE001 (any failure of scripting)
        if example_inputs is None:
            raise CompileError(
                "torch.jit.script failed and there are no example_inputs to "
                "trace with: %s" % str(scripting).strip().splitlines()[0]
            ) from None
        try:
            return torch.jit.trace(obj, tuple(example_inputs), check_trace=False)
        except Exception as tracing:  # noqa: BLE001
            raise CompileError("neither torch.jit.script nor torch.jit.trace "
                               "took %r: %s" % (obj, tracing)) from None


def graph_of(obj, example_inputs=None):
    """(kind, source, name) of the graph of `obj` for the extension's Graph:
    ("pt", path of a temporary archive, ...) for modules, ("text", graph
    text, ...) for functions. The caller removes a temporary archive."""
    torch = _torch()
    scripted = script(obj, example_inputs)
    name = getattr(obj, "__name__", None) or type(obj).__name__
    if isinstance(scripted, torch.jit.ScriptModule):
        handle, path = tempfile.mkstemp(prefix="tsmlir-", suffix=".pt")
        os.close(handle)
        torch.jit.save(scripted, path)
        return "pt", path, name
    graph = getattr(scripted, "inlined_graph", None) or scripted.graph
    return "text", str(graph), name + ".graph"


def write_safetensors(path, tensors):
    """Writes {name: numpy array} as a safetensors file."""
    import numpy as np
    dtypes = {"float32": "F32", "float64": "F64", "float16": "F16",
              "int64": "I64", "int32": "I32", "int16": "I16", "int8": "I8",
              "uint8": "U8", "bool": "BOOL"}
    header, blobs, offset = {}, [], 0
    for name, array in tensors.items():
        array = np.ascontiguousarray(array)
        if str(array.dtype) not in dtypes:
            raise CompileError("%s: dtype %s has no safetensors name"
                               % (name, array.dtype))
        data = array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes()
        header[name] = {"dtype": dtypes[str(array.dtype)],
                        "shape": list(array.shape),
                        "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)


def export(obj, example_inputs, path):
    """Writes `obj` where tsmlir reads it: `.pt` (torch.jit.save of the
    scripted module; a function is wrapped in one) or a graph's text (any
    other suffix): a module's graph (calls inlined), with its parameters
    and buffers beside it in `<path>.safetensors`. Returns the paths
    written."""
    torch = _torch()
    scripted = script(obj, example_inputs)
    if path.endswith((".pt", ".pth")):
        if not isinstance(scripted, torch.jit.ScriptModule):
            # An archive holds a module: the function's, traced.
            if example_inputs is None:
                raise CompileError("a function exports to a .pt archive "
                                   "traced in a module: give example_inputs")
            scripted = torch.jit.trace(_function_module(obj),
                                       tuple(example_inputs), check_trace=False)
        torch.jit.save(scripted, path)
        return [path]
    if isinstance(scripted, torch.jit.ScriptModule):
        # The graph with its calls inlined reads the parameters through
        # prim::GetAttr chains from `self`, by their state_dict names (a
        # frozen graph would fold some into constants of its own).
        with open(path, "w") as f:
            f.write(str(scripted.inlined_graph))
        params = path + ".safetensors"
        write_safetensors(params, {k: v.detach().cpu().numpy()
                                   for k, v in scripted.state_dict().items()})
        return [path, params]
    graph = getattr(scripted, "inlined_graph", None) or scripted.graph
    with open(path, "w") as f:
        f.write(str(graph))
    return [path]


def _function_module(fn):
    """A module whose forward calls `fn` (to be traced into an archive)."""
    torch = _torch()

    class FunctionModule(torch.nn.Module):
        def forward(self, *args):
            return fn(*args)

    return FunctionModule()
