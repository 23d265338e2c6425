"""Graphs compiled in process (the _native extension): tsmlir.compile and
tsmlir.load of TorchScript graphs, .pt archives and ts-dialect MLIR.

A JitFunction holds one imported graph. Each call looks up the signature of
its arguments (a tensor's dtype and shape, an int's or bool's value, None;
floats are values of the call, not of the compilation), compiles the graph
specialised for a signature it has not seen, and calls that specialisation:
a call with new shapes or dtypes re-specialises, earlier specialisations
stay cached.

    fn = tsmlir.compile(model, example_inputs=(x,))
    out = fn(x)                  # torch tensors in, torch tensors out
    out = fn(x.numpy())          # numpy arrays in, numpy arrays out
"""
import threading

from .errors import CompileError, RuntimeError  # noqa: A004 (tsmlir's own)
from .shared import _torch_if_used

try:
    from . import _native
except ImportError as _error:  # built without pybind11 or Python's headers
    _native = None
    _NATIVE_ERROR = str(_error)

STRATEGIES = ("nnc", "pointwise", "nvfuser", "aggressive", "none")
DEVICES = ("cpu", "cuda")


def native():
    """The extension, or CompileError saying why it is missing."""
    if _native is None:
        raise CompileError(
            "tsmlir was built without its in-process compiler (the _native "
            "extension needs pybind11-dev and python3-dev at build time: %s); "
            "shared models (.so) still load" % _NATIVE_ERROR)
    return _native


class _Arguments:
    """A call's arguments as the extension takes them (numpy arrays and
    Python numbers), their signature, and how to give results back."""

    def __init__(self, args):
        import numpy as np
        self.torch = _torch_if_used(args)
        self.device = None      # of the first torch tensor
        self.values, key = [], []
        for i, a in enumerate(args):
            torch = self.torch
            if torch is not None and torch.is_tensor(a):
                if self.device is None:
                    self.device = a.device
                a = a.detach()
                if a.device.type != "cpu":
                    a = a.cpu()
                a = a.contiguous().numpy()
            if isinstance(a, np.generic):
                a = a.item()
            if isinstance(a, np.ndarray):
                a = np.ascontiguousarray(a)
                if a.dtype.byteorder == ">":
                    a = a.astype(a.dtype.newbyteorder("<"))
                key.append(("tensor", a.dtype.str, a.shape))
            elif isinstance(a, bool) or a is None:
                key.append(("value", a))
            elif isinstance(a, int):
                key.append(("int", a))
            elif isinstance(a, float):
                key.append(("float",))
            else:
                raise CompileError(
                    "argument %d: a %s is not a value tsmlir takes (tensors, "
                    "numpy arrays, bools, ints, floats, None)"
                    % (i, type(a).__name__))
            self.values.append(a)
        self.key = tuple(key)

    def results(self, arrays, compiled):
        """The outputs in the callers' kind: outputs that are always None put
        back in place, numbers as Python numbers, tensors as torch tensors on
        the first input's device when the inputs were torch tensors."""
        out = list(arrays)
        for i, type_text in enumerate(compiled.output_types):
            if not type_text.startswith("!ts.tensor") and out[i].ndim == 0:
                out[i] = out[i].item()
        if self.torch is not None:
            device = self.device or "cpu"
            out = [self.torch.from_numpy(o).to(device) if hasattr(o, "ndim")
                   else o for o in out]
        for position in sorted(compiled.none_outputs):
            out.insert(position, None)
        return out[0] if len(out) == 1 else tuple(out)


class JitFunction:
    """A TorchScript graph compiled for each new signature of its
    arguments. `specializations` counts the signatures compiled so far."""

    def __init__(self, graph, name, strategy="nnc", device="cpu", threads=1,
                 exact_math=False):
        if strategy not in STRATEGIES:
            raise CompileError("strategy must be one of %s, not %r"
                               % (", ".join(STRATEGIES), strategy))
        if device not in DEVICES:
            raise CompileError("device must be 'cpu' or 'cuda', not %r" % (device,))
        self._graph = graph
        self.name = name
        self.strategy = strategy
        self.device = device
        self.threads = threads
        self.exact_math = exact_math
        self._cache = {}
        self._lock = threading.Lock()

    @property
    def specializations(self):
        return len(self._cache)

    def specialize(self, *args):
        """The compiled specialisation for these arguments (compiled now if
        their signature is new): its num_fusion_groups, output_types and
        compile_seconds."""
        return self._compiled(_Arguments(args))

    def _compiled(self, arguments):
        with self._lock:
            compiled = self._cache.get(arguments.key)
            if compiled is None:
                compiled = self._graph.compile(
                    arguments.values,
                    strategy="" if self.strategy == "none" else self.strategy,
                    device=self.device, threads=self.threads,
                    exact_math=self.exact_math)
                self._cache[arguments.key] = compiled
            return compiled

    def __call__(self, *args):
        arguments = _Arguments(args)
        compiled = self._compiled(arguments)
        return arguments.results(compiled.run(arguments.values), compiled)

    def fusion_report(self, *args, strategy="all", format="text"):
        """What --ts-fusion-report says of the graph specialised for these
        arguments: groups, their memory traffic, ops left unfused and why
        (`format` text, json or dot)."""
        return self._graph.fusion_report(_Arguments(args).values,
                                         strategy=strategy, format=format)

    def graph_text(self):
        """The imported graph, in the ts dialect."""
        return str(self._graph)

    def __repr__(self):
        return "<tsmlir.JitFunction %s: %s, %s, %d specialisation%s>" % (
            self.name, self.device, self.strategy, self.specializations,
            "" if self.specializations == 1 else "s")
