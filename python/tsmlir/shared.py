"""Models compiled ahead of time (`tsmlir-compile --shared`), loaded and
called through their C ABI with ctypes: no LLVM, no tsmlir build, no
compiler at run time. A CUDA model needs libtsmlir_cuda_runtime.so (found
beside the model, in $TSMLIR_RUNTIME_DIR, or by the dynamic loader) and a
CUDA driver.

    model = tsmlir.load("model.so")
    out = model(x, y, 0.5)        # torch tensors in, torch tensors out;
                                  # numpy arrays in, numpy arrays out

Torch tensors are passed without a copy when the model's device is theirs
and they are contiguous (a CUDA model reads and writes CUDA tensors in
place); numpy arrays given to a CUDA model are copied to the GPU and back
through the runtime. A call that the model refuses (wrong dtype, rank,
sizes, device error) raises tsmlir.RuntimeError with the model's message.
"""
import ctypes
import os

from . import _abi
from .errors import CompileError, RuntimeError  # noqa: A004 (tsmlir's own)

_RUNTIME = None


def cuda_runtime(directory=None):
    """libtsmlir_cuda_runtime.so, loaded once (RTLD_GLOBAL, so that shared
    models that need it find it), from `directory`, $TSMLIR_RUNTIME_DIR or
    the dynamic loader's path."""
    global _RUNTIME
    if _RUNTIME is None:
        name = "libtsmlir_cuda_runtime.so"
        candidates = [os.path.join(d, name) for d in
                      (directory, os.environ.get("TSMLIR_RUNTIME_DIR")) if d]
        candidates.append(name)
        errors = []
        for path in candidates:
            if path != name and not os.path.exists(path):
                continue
            try:
                lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
                break
            except OSError as e:
                errors.append(str(e))
        else:
            raise RuntimeError("cannot load %s (%s)" % (
                name, "; ".join(errors) or "not found"))
        _abi.declare_cuda_runtime(lib)
        _RUNTIME = lib
    return _RUNTIME


def _cuda_check(runtime, code, what):
    if code != 0:
        raise RuntimeError("%s: %s" % (
            what, runtime.tsmlirCudaGetLastError().decode(errors="replace")))


class Value:
    """What the model expects of one input or output."""

    def __init__(self, info):
        self.name = info.name.decode()
        self.kind = "number" if info.kind == _abi.KIND_NUMBER else "tensor"
        self.dtype = _abi.DTYPES[info.dtype][0]
        self.dtype_code = info.dtype
        self.shape = tuple(info.sizes[i] for i in range(info.rank))
        self.position = info.position

    def __repr__(self):
        return "%s %s%s" % (self.kind, self.dtype, list(self.shape))


class Entry:
    """One compiled function of a shared model, callable from Python."""

    def __init__(self, model, signature):
        sig = signature.contents
        if sig.abi_version != _abi.ABI_VERSION:
            raise RuntimeError("%s: compiled for ABI version %d, this loader "
                               "has %d" % (model.path, sig.abi_version,
                                           _abi.ABI_VERSION))
        self._model = model
        self.name = sig.name.decode()
        self.target = sig.target.decode()
        self.device = "cuda" if sig.device == _abi.DEVICE_CUDA else "cpu"
        self.inputs = [Value(sig.inputs[i]) for i in range(sig.num_inputs)]
        self.outputs = [Value(sig.outputs[i]) for i in range(sig.num_outputs)]
        self.bound = {sig.bound[i].position: sig.bound[i].value.decode()
                      for i in range(sig.num_bound)}
        self.num_graph_arguments = sig.num_graph_arguments
        self._entry = _abi.EntryFn(sig.entry)

    def __repr__(self):
        return "<tsmlir entry %s (%s %s): %s -> %s>" % (
            self.name, self.device, self.target, self.inputs, self.outputs)

    def select_inputs(self, arguments):
        """The call's inputs from all of the graph's arguments (the bound
        ones, fixed at compile time, left out), or `arguments` themselves
        when they are exactly the inputs."""
        if len(arguments) == len(self.inputs):
            return list(arguments)
        if len(arguments) == self.num_graph_arguments:
            return [arguments[v.position] for v in self.inputs]
        raise RuntimeError("%s takes %d inputs (%s)%s, got %d" % (
            self.name, len(self.inputs), ", ".join(v.name for v in self.inputs),
            " or all %d graph arguments" % self.num_graph_arguments
            if self.bound else "", len(arguments)))

    def bind(self, *arguments):
        """A call prepared once: inputs checked and converted, outputs
        allocated; calling it runs the model again on the same buffers and
        returns the same output objects (for benchmarks and loops that
        refill their inputs in place)."""
        return BoundCall(self, self.select_inputs(arguments))

    def __call__(self, *arguments):
        args = self.select_inputs(arguments)
        torch = _torch_if_used(args)
        with _Call(self, torch) as call:
            for value, arg in zip(self.inputs, args):
                call.add_input(value, arg)
            for value in self.outputs:
                call.add_output(value)
            call.run()
            results = call.results()
        return results[0] if len(results) == 1 else tuple(results)


class BoundCall:
    """Entry.bind's result: the buffers of one call, kept until it is
    garbage."""

    def __init__(self, entry, args):
        self._call = _Call(entry, _torch_if_used(args))
        self._call.__enter__()
        for value, arg in zip(entry.inputs, args):
            self._call.add_input(value, arg)
        for value in entry.outputs:
            self._call.add_output(value)
        self._call.prepare()

    def __call__(self):
        self._call.run()
        results = self._call.results()
        return results[0] if len(results) == 1 else tuple(results)

    def __del__(self):
        call = getattr(self, "_call", None)
        if call is not None and call.runtime is not None:
            call.__exit__(None, None, None)


def _raw_stream_getter(torch):
    """A function giving PyTorch's current CUDA stream on the current device
    as a CUstream (0: the legacy default stream)."""
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is not None:
        device = torch.cuda.current_device
        return lambda: raw(device())
    return lambda: torch.cuda.current_stream().cuda_stream


def _torch_if_used(args):
    for a in args:
        module = type(a).__module__
        if module.startswith("torch"):
            import torch
            return torch
    return None


class _Call:
    """The buffers of one call: input and output tsmlir_tensors, device
    copies for numpy data given to a CUDA model, freed on exit."""

    def __init__(self, entry, torch):
        import numpy as np
        self.np, self.torch, self.entry = np, torch, entry
        self.cuda = entry.device == "cuda"
        self.runtime = cuda_runtime(entry._model.directory) if self.cuda else None
        self.keep = []          # Python objects whose memory the call uses
        self.device_buffers = []
        self.inputs, self.outputs = [], []
        self.host_outputs = []  # (value, array or tensor, device pointer or None)

    def __enter__(self):
        if self.cuda:
            _cuda_check(self.runtime, self.runtime.tsmlirCudaInit(), "CUDA")
        return self

    def __exit__(self, *exc):
        for ptr in self.device_buffers:
            self.runtime.tsmlirCudaFree(ptr)
        return False

    def _tensor(self, data, dtype, shape):
        sizes = (ctypes.c_int64 * max(len(shape), 1))(*shape)
        self.keep.append(sizes)
        return _abi.Tensor(data, dtype, len(shape), sizes, None)

    def _device_alloc(self, nbytes):
        ptr = ctypes.c_void_p()
        _cuda_check(self.runtime, self.runtime.tsmlirCudaMalloc(
            ctypes.byref(ptr), max(nbytes, 1)), "tsmlirCudaMalloc")
        self.device_buffers.append(ptr.value)
        return ptr.value

    def add_input(self, value, arg):
        np, torch = self.np, self.torch
        if value.kind == "number":
            # Numbers stay in host memory: float arguments as float64.
            if torch is not None and torch.is_tensor(arg):
                arg = arg.item()
            if isinstance(arg, np.ndarray):
                arg = arg.item()
            array = np.array(arg, dtype=np.float64 if value.dtype == "float64"
                             else _abi.DTYPES[value.dtype_code][1])
            self.keep.append(array)
            self.inputs.append(self._tensor(array.ctypes.data,
                                            _abi.DTYPE_CODES[str(array.dtype)], ()))
            return
        if torch is not None and torch.is_tensor(arg):
            want = "cuda" if self.cuda else "cpu"
            if arg.device.type != want:
                arg = arg.to(want)
            arg = arg.contiguous()
            self.keep.append(arg)
            code = _abi.DTYPE_CODES.get(str(arg.dtype).replace("torch.", ""))
            if code is None:
                raise RuntimeError("input '%s': %s is not a dtype of the ABI"
                                   % (value.name, arg.dtype))
            self.inputs.append(self._tensor(arg.data_ptr(), code, tuple(arg.shape)))
            return
        array = np.ascontiguousarray(arg)
        code = _abi.DTYPE_CODES.get(str(array.dtype))
        if code is None:
            raise RuntimeError("input '%s': %s is not a dtype of the ABI"
                               % (value.name, array.dtype))
        self.keep.append(array)
        data = array.ctypes.data
        if self.cuda:
            data = self._device_alloc(array.nbytes)
            _cuda_check(self.runtime, self.runtime.tsmlirCudaMemcpyHtoD(
                data, array.ctypes.data, array.nbytes, None), "copy to the GPU")
        self.inputs.append(self._tensor(data, code, array.shape))

    def add_output(self, value):
        np, torch = self.np, self.torch
        numpy_dtype = _abi.DTYPES[value.dtype_code][1]
        on_device = self.cuda and value.kind == "tensor"
        if torch is not None and value.kind == "tensor":
            out = torch.empty(value.shape, dtype=getattr(torch, numpy_dtype),
                              device="cuda" if on_device else "cpu")
            self.keep.append(out)
            self.outputs.append(self._tensor(out.data_ptr(), value.dtype_code,
                                             value.shape))
            self.host_outputs.append((value, out, None))
            return
        out = np.empty(value.shape, dtype=numpy_dtype)
        data = out.ctypes.data
        device = None
        if on_device:
            device = data = self._device_alloc(out.nbytes)
        self.keep.append(out)
        self.outputs.append(self._tensor(data, value.dtype_code, value.shape))
        self.host_outputs.append((value, out, device))

    def prepare(self):
        n_in, n_out = len(self.inputs), len(self.outputs)
        self.arrays = ((_abi.Tensor * max(n_in, 1))(*self.inputs), n_in,
                       (_abi.Tensor * max(n_out, 1))(*self.outputs), n_out)
        # Only PyTorch's tensors on a CUDA model: the kernels queue on
        # PyTorch's current stream, after the work that wrote the inputs,
        # and the call returns without waiting, as a PyTorch op does. With
        # copies of numpy data (freed when the call returns) the call waits
        # for its kernels, after PyTorch's work on its inputs.
        self.on_torch_stream = (self.torch is not None and self.cuda
                                and not self.device_buffers)
        self.stream_of = _raw_stream_getter(self.torch) if self.on_torch_stream else None
        # Outputs handed back as they are (no copy back, no number).
        self.same_outputs = None
        if all(device is None and value.kind != "number"
               for value, _, device in self.host_outputs):
            self.same_outputs = [result for _, result, _ in self.host_outputs]

    def run(self):
        if not hasattr(self, "arrays"):
            self.prepare()
        if self.on_torch_stream:
            runtime = self.runtime
            _cuda_check(runtime, runtime.tsmlirCudaBeginCallerStream(
                self.stream_of()), "PyTorch's stream")
            try:
                status = self.entry._entry(*self.arrays)
            finally:
                runtime.tsmlirCudaEndCallerStream()
        else:
            if self.torch is not None and self.cuda:
                self.torch.cuda.synchronize()
            status = self.entry._entry(*self.arrays)
        if status != _abi.OK:
            lib = self.entry._model.lib
            raise RuntimeError("%s: %s: %s" % (
                self.entry.name, lib.tsmlir_status_name(status).decode(),
                lib.tsmlir_last_error().decode(errors="replace")))

    def results(self):
        if self.same_outputs is not None:
            return list(self.same_outputs)
        out = []
        for value, result, device in self.host_outputs:
            if device is not None:
                _cuda_check(self.runtime, self.runtime.tsmlirCudaMemcpyDtoH(
                    result.ctypes.data, device, result.nbytes, None),
                    "copy from the GPU")
            if value.kind == "number":
                result = result.item()
            out.append(result)
        return out


class SharedModel:
    """A shared object from `tsmlir-compile --shared`: its entries by name.
    Calling the model calls its only entry."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        self.directory = os.path.dirname(self.path)
        if not os.path.exists(self.path):
            raise CompileError("%s: no such file" % path)
        try:
            # A CUDA model's NEEDED runtime: load it first if it is beside
            # the model or in $TSMLIR_RUNTIME_DIR (harmless for CPU models).
            cuda_runtime(self.directory)
        except RuntimeError:
            pass
        try:
            self.lib = ctypes.CDLL(self.path, mode=ctypes.RTLD_LOCAL)
        except OSError as e:
            raise RuntimeError("cannot load %s: %s" % (path, e)) from None
        try:
            anchor = ctypes.c_void_p.in_dll(self.lib, "tsmlir_shared_model")
        except ValueError:
            raise RuntimeError("%s is not a shared model of tsmlir-compile "
                               "(no tsmlir_shared_model table)" % path) from None
        _abi.declare_model_library(self.lib)
        self.entries = {}
        i = 0
        # The symbol is the NULL-terminated array of signature pointers.
        array = ctypes.cast(ctypes.addressof(anchor),
                            ctypes.POINTER(ctypes.POINTER(_abi.Signature)))
        while array[i]:
            entry = Entry(self, array[i])
            self.entries[entry.name] = entry
            i += 1
        if not self.entries:
            raise RuntimeError("%s: no entries" % path)

    def entry(self, name=None):
        if name is None:
            if len(self.entries) != 1:
                raise RuntimeError("%s has entries %s: name one" % (
                    self.path, ", ".join(sorted(self.entries))))
            return next(iter(self.entries.values()))
        for full, entry in self.entries.items():
            if full == name or full.endswith("_" + name):
                return entry
        raise RuntimeError("%s: no entry '%s' (%s)" % (
            self.path, name, ", ".join(sorted(self.entries))))

    def __call__(self, *args):
        return self.entry()(*args)

    def __repr__(self):
        return "<tsmlir shared model %s: %s>" % (
            self.path, ", ".join(sorted(self.entries)))
