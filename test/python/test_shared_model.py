"""tsmlir.load on shared models (tsmlir-compile --shared): numpy and torch
inputs, numbers, arguments fixed at compile time, bound calls, threads, CUDA
models against the fake driver, and the errors a caller can make."""
import concurrent.futures

import numpy as np
import pytest
import torch

import tsmlir


def reference(x, y, a):
    out = x * np.float32(a) + y
    return out, out > a


def test_numpy_in_numpy_out(models):
    model = tsmlir.load(models["scale_add"])
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal((2, 3), np.float32), rng.standard_normal((2, 3), np.float32)
    out, mask = model(x, y, 0.5)
    ref, ref_mask = reference(x, y, 0.5)
    assert isinstance(out, np.ndarray) and out.dtype == np.float32
    np.testing.assert_allclose(out, ref, rtol=1e-6, atol=0)
    assert mask.dtype == np.bool_ and np.array_equal(mask, ref_mask)


def test_torch_in_torch_out(models):
    model = tsmlir.load(models["scale_add"])
    x, y = torch.randn(2, 3), torch.randn(2, 3)
    out, mask = model(x, y, 1.5)
    assert torch.is_tensor(out) and torch.is_tensor(mask)
    torch.testing.assert_close(out, x * 1.5 + y, rtol=1e-6, atol=0)
    assert torch.equal(mask, (x * 1.5 + y) > 1.5)


def test_non_contiguous_torch_input(models):
    model = tsmlir.load(models["scale_add"])
    x = torch.randn(3, 2).t()  # strided
    y = torch.randn(2, 3)
    out, _ = model(x, y, 2.0)
    torch.testing.assert_close(out, x * 2.0 + y, rtol=1e-6, atol=0)


def test_signature(models):
    entry = tsmlir.load(models["scale_add"]).entry()
    assert entry.device == "cpu"
    assert [(v.name, v.kind, v.dtype, v.shape) for v in entry.inputs] == [
        ("x", "tensor", "float32", (2, 3)), ("y", "tensor", "float32", (2, 3)),
        ("a", "number", "float64", ())]
    assert [(v.kind, v.dtype, v.shape) for v in entry.outputs] == [
        ("tensor", "float32", (2, 3)), ("tensor", "bool", (2, 3))]


def test_fixed_argument_and_number_output(models):
    model = tsmlir.load(models["sum_dim"])
    entry = model.entry()
    assert entry.bound == {1: "1"} and len(entry.inputs) == 1
    x = np.arange(20, dtype=np.float64).reshape(4, 5)
    total, size = model(x)
    np.testing.assert_array_equal(total, x.sum(1))
    assert size == 5 and isinstance(size, int)
    # All of the graph's arguments may be given: the fixed one is skipped.
    total2, _ = model(x, 1)
    np.testing.assert_array_equal(total2, total)


def test_bound_call_reuses_buffers(models):
    x, y = torch.zeros(2, 3), torch.ones(2, 3)
    call = tsmlir.load(models["scale_add"]).entry().bind(x, y, 1.0)
    out1, _ = call()
    assert torch.equal(out1, torch.ones(2, 3))
    x.fill_(2.0)  # the bound call reads the same memory again
    out2, _ = call()
    assert out2 is out1 and torch.equal(out2, torch.full((2, 3), 3.0))


def test_threads(models):
    model = tsmlir.load(models["big"])
    inputs = [(np.full((256, 1024), i, np.float32), np.full((256, 1024), 1, np.float32))
              for i in range(16)]

    def run(i):
        out, _ = model(inputs[i][0], inputs[i][1], 2.0)
        return bool(np.all(out == 2.0 * i + 1))

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        assert all(pool.map(run, range(16)))


def test_cuda_model_on_fake_driver(models):
    model = tsmlir.load(models["scale_add_cuda"])
    entry = model.entry()
    assert entry.device == "cuda" and entry.target.startswith("sm_")
    x = np.ones((2, 3), np.float32)
    out, mask = model(x, x, 0.5)  # copied to the (fake) device and back
    assert out.shape == (2, 3) and out.dtype == np.float32
    assert mask.shape == (2, 3) and mask.dtype == np.bool_


@pytest.mark.parametrize("args, message", [
    ((np.zeros((2, 3), np.float32),), "takes 3 inputs (x, y, a), got 1"),
    ((np.zeros((2, 3), np.float64), np.zeros((2, 3), np.float32), 1.0),
     "TSMLIR_ERROR_DTYPE: scale_add_main: input 0 ('x'): expected float32[2, 3], got float64[2, 3]"),
    ((np.zeros((3, 2), np.float32), np.zeros((2, 3), np.float32), 1.0),
     "TSMLIR_ERROR_SHAPE"),
    ((np.zeros((2, 3), np.complex64), np.zeros((2, 3), np.float32), 1.0),
     "input 'x': complex64 is not a dtype of the ABI"),
])
def test_call_errors(models, args, message):
    model = tsmlir.load(models["scale_add"])
    with pytest.raises(tsmlir.RuntimeError) as info:
        model(*args)
    assert message in str(info.value)


def test_load_errors(tmp_path, models):
    with pytest.raises(tsmlir.CompileError, match="no such file"):
        tsmlir.load(str(tmp_path / "missing.so"))
    # Graphs compile in process (test_compile.py), shared models load.
    text = tmp_path / "graph.txt"
    text.write_text("graph():\n  return ()\n")
    assert isinstance(tsmlir.load(str(text)), tsmlir.JitFunction)
    assert isinstance(tsmlir.load(models["scale_add"]), tsmlir.SharedModel)
    not_model = tmp_path / "not-a-model.so"
    not_model.write_bytes(b"\x7fELF not really")
    with pytest.raises(tsmlir.RuntimeError, match="cannot load"):
        tsmlir.load(str(not_model))
    with pytest.raises(tsmlir.RuntimeError, match="no tsmlir_shared_model table"):
        tsmlir.SharedModel(tsmlir.cuda_runtime()._name)
    model = tsmlir.load(models["scale_add"])
    with pytest.raises(tsmlir.RuntimeError, match="no entry 'nope'"):
        model.entry("nope")
