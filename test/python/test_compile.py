"""tsmlir.compile and tsmlir.load compiling in process (the _native
extension): every corpus case (test/Corpus) from its Python source through
tsmlir.compile and from its graph text through tsmlir.load, compared with
PyTorch's recorded outputs at the test suite's tolerances; re-specialisation
on new shapes and dtypes; numpy and torch values; a module with parameters
exported by tsmlir.export (.pt, and text with safetensors); the fusion
report; errors that name the op and its location; threads."""
import concurrent.futures
import importlib.util
import json
import os
import struct
import sys

import numpy as np
import pytest
import torch

import tsmlir

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "test", "Corpus")
sys.path.insert(0, os.path.join(ROOT, "test", "e2e", "Inputs"))
import harness  # noqa: E402 (the suite's tolerances)

CASES = sorted(d for d in os.listdir(CORPUS)
               if os.path.exists(os.path.join(CORPUS, d, "meta.json")))


def read_safetensors(path):
    dtypes = {"F32": np.float32, "F64": np.float64, "I64": np.int64,
              "F16": np.float16, "I32": np.int32, "U8": np.uint8, "BOOL": np.bool_}
    with open(path, "rb") as f:
        (size,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(size))
        data = f.read()
    out = {}
    for name, spec in header.items():
        if name == "__metadata__":
            continue
        begin, end = spec["data_offsets"]
        out[name] = np.frombuffer(data[begin:end], dtypes[spec["dtype"]]).reshape(spec["shape"])
    return out


def case(name):
    """(meta, the case's function or module with its recorded parameters,
    its arguments as torch values, PyTorch's outputs)."""
    folder = os.path.join(CORPUS, name)
    with open(os.path.join(folder, "meta.json")) as f:
        meta = json.load(f)
    spec = importlib.util.spec_from_file_location("corpus_" + name,
                                                  os.path.join(folder, "source.py"))
    source = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(source)
    if meta["kind"] == "module":
        obj = source.build().eval()
        params = read_safetensors(os.path.join(folder, "params.safetensors"))
        obj.load_state_dict({k: torch.from_numpy(v.copy()) for k, v in params.items()})
    else:
        obj = getattr(source, meta["entry"])
    args = []
    for spec_ in meta["inputs"]:
        if spec_["kind"] == "tensor":
            args.append(torch.from_numpy(np.load(os.path.join(folder, spec_["file"]))))
        else:
            args.append(spec_.get("value"))
    refs = [np.load(os.path.join(folder, o["file"])) for o in meta["outputs"]]
    return meta, obj, args, refs


def check(out, refs):
    outs = list(out) if isinstance(out, tuple) else [out]
    assert len(outs) == len(refs)
    for i, (ours, ref) in enumerate(zip(outs, refs)):
        ours = ours.numpy() if torch.is_tensor(ours) else np.asarray(ours, ref.dtype)
        why = harness.mismatch(ours, ref, "out%d" % i)
        assert why is None, why


@pytest.mark.parametrize("name", CASES)
def test_corpus_compile(name):
    meta, obj, args, refs = case(name)
    fn = tsmlir.compile(obj, example_inputs=args)
    out = fn(*args)
    check(out, refs)
    # numpy in, numpy out, same specialisation.
    np_args = [a.numpy() if torch.is_tensor(a) else a for a in args]
    np_out = fn(*np_args)
    for o in (np_out if isinstance(np_out, tuple) else (np_out,)):
        assert not torch.is_tensor(o)
    check(tuple(torch.from_numpy(np.asarray(o)) if isinstance(o, np.ndarray) else o
                for o in (np_out if isinstance(np_out, tuple) else (np_out,))), refs)
    assert fn.specializations == 1


@pytest.mark.parametrize("name", CASES)
def test_corpus_load_graph_text(name):
    meta, _, args, refs = case(name)
    folder = os.path.join(CORPUS, name)
    text = os.path.join(folder, "inlined.txt")
    if not os.path.exists(text):
        text = os.path.join(folder, "graph.txt")
    params = os.path.join(folder, "params.safetensors")
    fn = tsmlir.load(text, params=params if os.path.exists(params) else None)
    check(fn(*args), refs)


def test_respecializes_on_shape_and_dtype():
    def scale_relu(x, a: float):
        return torch.relu(x * a)
    fn = tsmlir.compile(scale_relu)
    for shape, dtype in [((2, 3), torch.float32), ((5,), torch.float32),
                         ((2, 3), torch.float64), ((2, 3), torch.float32)]:
        x = torch.randn(shape, dtype=dtype)
        out = fn(x, 1.5)
        assert out.dtype == dtype and out.shape == x.shape
        torch.testing.assert_close(out, torch.relu(x * 1.5), rtol=0, atol=0)
    # The float is a value of the call, not of the compilation.
    torch.testing.assert_close(fn(x, -2.0), torch.relu(x * -2.0), rtol=0, atol=0)
    assert fn.specializations == 3


def test_ints_and_bools_specialise():
    def pick(x, n: int, flip: bool):
        y = x * n
        if flip:
            y = -y
        return y
    fn = tsmlir.compile(pick)
    x = torch.randn(4)
    for n, flip in [(2, False), (3, True), (2, False)]:
        torch.testing.assert_close(fn(x, n, flip), pick(x, n, flip), rtol=0, atol=0)
    assert fn.specializations == 2


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.norm = torch.nn.BatchNorm2d(8)
        self.fc = torch.nn.Linear(8, 5)

    def forward(self, x):
        y = torch.relu(self.norm(self.conv(x)))
        return self.fc(y.mean(dim=(2, 3)))


def test_module_with_parameters_export_and_load(tmp_path):
    torch.manual_seed(0)
    model = Block().eval()
    x = torch.randn(2, 3, 8, 8)
    ref = model(x).detach()
    fn = tsmlir.compile(model, example_inputs=(x,))
    torch.testing.assert_close(fn(x), ref, rtol=1e-4, atol=1e-5)
    pt = str(tmp_path / "block.pt")
    assert tsmlir.export(model, (x,), pt) == [pt]
    torch.testing.assert_close(tsmlir.load(pt)(x), ref, rtol=1e-4, atol=1e-5)
    text = str(tmp_path / "block.txt")
    written = tsmlir.export(model, (x,), text)
    assert written == [text, text + ".safetensors"]
    loaded = tsmlir.load(text, params=written[1])
    torch.testing.assert_close(loaded(x), ref, rtol=1e-4, atol=1e-5)


def test_traced_when_scripting_fails():
    class Dynamic(torch.nn.Module):
        def forward(self, x):
            return getattr(torch, "tanh")(x) * 2  # getattr: not scriptable
    x = torch.randn(3, 4)
    fn = tsmlir.compile(Dynamic(), example_inputs=(x,))
    torch.testing.assert_close(fn(x), torch.tanh(x) * 2, rtol=1e-5, atol=1e-6)


def test_fusion_report():
    def chain(x, y):
        return torch.sigmoid(x * y + 1.0).sum()
    x, y = torch.randn(16, 32), torch.randn(16, 32)
    text = tsmlir.fusion_report(chain, (x, y), strategy="nnc")
    assert "=== @main, strategy nnc ===" in text
    assert "aten::mul aten::add aten::sigmoid" in text
    assert "summary nnc: 1 groups" in text
    report = json.loads(tsmlir.fusion_report(chain, (x, y), strategy="nnc", format="json"))
    assert report


def test_fusion_report_shows_library_kernels():
    """A convolution, its bias and relu: one library kernel where the build
    has them (the report shows the graph as compile() compiles it), else the
    relu alone in no group."""
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), torch.nn.ReLU()).eval()
    x = torch.randn(1, 3, 10, 10)
    text = tsmlir.fusion_report(model, (x,), strategy="nnc")
    if tsmlir.jit.native().has_library_kernels():
        assert "library kernel kernel.conv2d" in text
        assert "epilogue: bias relu" in text
        assert "(1 library kernels, 2 epilogue entries)" in text
    else:
        assert "library kernel" not in text
        assert "aten::conv2d" in text or "aten::_convolution" in text


def test_unsupported_op_is_named_with_its_location(tmp_path):
    graph = tmp_path / "bad.txt"
    graph.write_text("graph(%x : Tensor):\n"
                     "  %1 : Tensor = aten::frobnicate(%x)\n"
                     "  return (%1)\n")
    fn = tsmlir.load(str(graph))
    with pytest.raises(tsmlir.CompileError) as error:
        fn(np.ones(3, np.float32))
    assert "bad.txt:2:" in str(error.value)
    assert "unsupported operator 'aten::frobnicate'" in str(error.value)


def test_malformed_graph_and_missing_file(tmp_path):
    graph = tmp_path / "cut.txt"
    graph.write_text("graph(%x : Tensor):\n  %1 : Tensor = aten::relu(%x\n")
    with pytest.raises(tsmlir.CompileError, match=r"cut.txt:\d+:\d+: error: expected"):
        tsmlir.load(str(graph))
    with pytest.raises(tsmlir.CompileError, match="no such file"):
        tsmlir.load(str(tmp_path / "missing.pt"))
    archive = tmp_path / "broken.pt"
    archive.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(tsmlir.CompileError):
        tsmlir.load(str(archive))


def test_bad_arguments():
    def f(x):
        return x + 1
    fn = tsmlir.compile(f)
    with pytest.raises(tsmlir.CompileError, match="argument 0: a list"):
        fn([1, 2, 3])
    with pytest.raises(tsmlir.CompileError, match="complex64"):
        fn(np.ones(2, np.complex64))
    with pytest.raises(tsmlir.CompileError, match="backward=True"):
        tsmlir.compile(f, backward=True)
    with pytest.raises(tsmlir.CompileError, match="device must be"):
        tsmlir.compile(f, device="tpu")


def test_threads_share_a_function():
    def f(x, y):
        return torch.tanh(x) + y
    fn = tsmlir.compile(f)
    rng = np.random.default_rng(0)
    pairs = [(rng.standard_normal((n, 4), np.float32), rng.standard_normal((n, 4), np.float32))
             for n in (1, 2, 3) for _ in range(4)]

    def work(pair):
        x, y = pair
        return np.allclose(fn(x, y), np.tanh(x) + y, rtol=1e-5, atol=1e-6)

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        assert all(pool.map(work, pairs))
    assert fn.specializations == 3


def test_torch_compile_backend_needs_pytorch_2():
    import tsmlir.dynamo
    if int(torch.__version__.split(".")[0]) >= 2:
        model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Tanh()).eval()
        x = torch.randn(2, 4)
        fast = torch.compile(model, backend="tsmlir")
        torch.testing.assert_close(fast(x), model(x), rtol=1e-4, atol=1e-5)
    else:
        with pytest.raises(tsmlir.CompileError, match="PyTorch 2 or later"):
            tsmlir.dynamo.backend(None, [])


def test_pip_install(tmp_path):
    import subprocess
    target = tmp_path / "site"
    env = dict(os.environ, TSMLIR_BUILD_DIR=os.path.abspath(os.environ.get(
        "TSMLIR_BUILD_DIR", os.path.join(ROOT, "build"))))
    pip = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-build-isolation",
         "--no-deps", "--no-index", "--target", str(target),
         os.path.join(ROOT, "python")], capture_output=True, text=True, env=env,
        cwd=tmp_path)
    assert pip.returncode == 0, pip.stderr
    # The installed package, not the build's, compiles a function.
    script = ("import sys; sys.path.insert(0, %r)\n"
              "import numpy as np, tsmlir\n"
              "assert tsmlir.__file__.startswith(%r), tsmlir.__file__\n"
              "g = tsmlir.load(%r)\n"
              "x = np.arange(6, dtype=np.float32).reshape(2, 3)\n"
              "print(float(g(x).sum()))\n") % (str(target), str(target), str(tmp_path / "g.txt"))
    (tmp_path / "g.txt").write_text(
        "graph(%x : Tensor):\n  %1 : Tensor = aten::relu(%x)\n  return (%1)\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True,
                         text=True, cwd=tmp_path,
                         env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "15.0"


def test_example_compile_module(capsys):
    import runpy
    runpy.run_path(os.path.join(ROOT, "examples", "python", "compile_module.py"),
                   run_name="__main__")
    out = capsys.readouterr().out
    assert "max abs difference from PyTorch" in out
    assert "2 specialisations" in out
    assert out.splitlines()[-1].startswith("summary nnc:")


def test_arrays_in_place_and_misaligned_ones_copied():
    def axpy(x, y, a: float):
        return x * a + y
    fn = tsmlir.compile(axpy)
    x = np.arange(16, dtype=np.float32)
    y = np.ones(16, np.float32)
    assert fn.specialize(x, y, 2.0).in_place
    out = fn(x, y, 2.0)
    np.testing.assert_array_equal(out, x * 2 + 1)
    assert not np.shares_memory(out, x) and not np.shares_memory(out, y)
    # A view 4 bytes into its buffer is read through a copy.
    base = np.arange(17, dtype=np.float32)
    shifted = base[1:]
    assert shifted.ctypes.data % 16 != 0
    np.testing.assert_array_equal(fn(shifted, y, 3.0), shifted * 3 + 1)
    # Strided torch tensors are made contiguous first.
    t = torch.arange(32, dtype=torch.float32).reshape(16, 2)[:, 0]
    torch.testing.assert_close(fn(t, torch.ones(16), 0.5), t * 0.5 + 1)
    assert fn.specializations == 1


def test_a_raise_in_the_graph_is_a_runtime_error():
    def checked(x, n: int):
        if n < 0:
            raise ValueError("n must not be negative")
        return x * n
    fn = tsmlir.compile(checked)
    x = torch.ones(3)
    torch.testing.assert_close(fn(x, 2), x * 2)
    with pytest.raises(tsmlir.RuntimeError,
                       match="the graph raised an exception: n must not be negative"):
        fn(x, -1)
    # The process and the function go on.
    torch.testing.assert_close(fn(x, 3), x * 3)


def test_function_exports_to_a_traced_archive(tmp_path):
    def g(x, y):
        return torch.tanh(x) * y
    x, y = torch.randn(3, 4), torch.randn(3, 4)
    path = str(tmp_path / "g.pt")
    assert tsmlir.export(g, (x, y), path) == [path]
    torch.testing.assert_close(tsmlir.load(path)(x, y), g(x, y), rtol=1e-5, atol=1e-6)
    with pytest.raises(tsmlir.CompileError, match="give example_inputs"):
        tsmlir.export(g, None, str(tmp_path / "h.pt"))
