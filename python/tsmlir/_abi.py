"""ctypes mirror of runtime/include/tsmlir/Runtime/Abi.h (the C ABI of models
compiled by tsmlir-compile) and of the part of CudaRuntime.h that moves data.

Only this file spells out the C structures; keep it in step with Abi.h
(TSMLIR_ABI_VERSION is checked when a model is loaded).
"""
import ctypes

ABI_VERSION = 1

# tsmlir_dtype -> (name as PyTorch spells it, numpy dtype string).
DTYPES = {
    1: ("bool", "bool"),
    2: ("uint8", "uint8"),
    3: ("int8", "int8"),
    4: ("int16", "int16"),
    5: ("int32", "int32"),
    6: ("int64", "int64"),
    7: ("float16", "float16"),
    8: ("float32", "float32"),
    9: ("float64", "float64"),
}
DTYPE_CODES = {numpy_name: code for code, (_, numpy_name) in DTYPES.items()}

KIND_TENSOR, KIND_NUMBER = 0, 1
DEVICE_CPU, DEVICE_CUDA = 0, 1
OK = 0


class Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p),
                ("dtype", ctypes.c_int32),
                ("rank", ctypes.c_int32),
                ("sizes", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64))]


class ValueInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p),
                ("kind", ctypes.c_int32),
                ("dtype", ctypes.c_int32),
                ("rank", ctypes.c_int32),
                ("position", ctypes.c_int32),
                ("sizes", ctypes.POINTER(ctypes.c_int64))]


class BoundArgument(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p),
                ("position", ctypes.c_int32),
                ("value", ctypes.c_char_p)]


EntryFn = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(Tensor), ctypes.c_int64,
                           ctypes.POINTER(Tensor), ctypes.c_int64)


class Signature(ctypes.Structure):
    _fields_ = [("abi_version", ctypes.c_uint32),
                ("device", ctypes.c_int32),
                ("name", ctypes.c_char_p),
                ("target", ctypes.c_char_p),
                ("num_inputs", ctypes.c_int32),
                ("num_outputs", ctypes.c_int32),
                ("num_bound", ctypes.c_int32),
                ("num_graph_arguments", ctypes.c_int32),
                ("inputs", ctypes.POINTER(ValueInfo)),
                ("outputs", ctypes.POINTER(ValueInfo)),
                ("bound", ctypes.POINTER(BoundArgument)),
                ("entry", ctypes.c_void_p),
                ("packed", ctypes.c_void_p),
                ("device_error", ctypes.c_void_p)]


def declare_model_library(lib):
    """The ABI functions (libtsmlir_runtime.a, linked into every shared
    model) that a loader calls."""
    lib.tsmlir_last_error.restype = ctypes.c_char_p
    lib.tsmlir_last_error.argtypes = []
    lib.tsmlir_status_name.restype = ctypes.c_char_p
    lib.tsmlir_status_name.argtypes = [ctypes.c_int32]


def declare_cuda_runtime(lib):
    """The functions of libtsmlir_cuda_runtime.so that move data."""
    vp, size = ctypes.c_void_p, ctypes.c_size_t
    for name, args in (("tsmlirCudaInit", []),
                       ("tsmlirCudaDeviceName", [ctypes.c_char_p, size]),
                       ("tsmlirCudaDeviceSynchronize", []),
                       ("tsmlirCudaMalloc", [ctypes.POINTER(vp), size]),
                       ("tsmlirCudaFree", [vp]),
                       ("tsmlirCudaMemcpyHtoD", [vp, vp, size, vp]),
                       ("tsmlirCudaMemcpyDtoH", [vp, vp, size, vp]),
                       ("tsmlirCudaBeginCallerStream", [vp]),
                       ("tsmlirCudaEndCallerStream", []),
                       ("tsmlirCudaLaunchCount", [])):
        fn = getattr(lib, name)
        fn.argtypes = args
        fn.restype = ctypes.c_uint64 if name == "tsmlirCudaLaunchCount" else ctypes.c_int
    lib.tsmlirCudaGetLastError.restype = ctypes.c_char_p
    lib.tsmlirCudaGetLastError.argtypes = []
