#!/usr/bin/env python3
"""The workloads of the CPU benchmark: TorchScript functions and their inputs.

Each workload is a plain PyTorch function (scripted with torch.jit.script for
the graph and the TorchScript variant, called directly for eager PyTorch) and
an input generator for a total element count N (float32, seeded). `prepare`
writes a case to a directory:

    graph.txt        the scripted function's graph as PyTorch prints it
                     (inlined, so F.layer_norm is an aten::layer_norm)
    in0.npy, ...     the tensor arguments, in order
    meta.json        every argument in order (tensor files and scalar
                     values), the shapes, N and the seed

    /usr/bin/python3 bench/cpu/workloads.py --list
    /usr/bin/python3 bench/cpu/workloads.py gelu 1M /tmp/gelu-1M

Needs PyTorch and numpy (Debian: python3-torch, python3-numpy).
"""

import argparse
import json
import os

import numpy as np
import torch
import torch.nn.functional as F

# Bumped when a generator changes, so that cached cases are rewritten.
FORMAT_VERSION = 1
DEFAULT_SEED = 20240


# --- The functions --------------------------------------------------------
# ratio_iou, lerp and bias_gelu are the bodies of test/Corpus/<name>/source.py.


def ratio_iou(boxes1, boxes2):
    area1 = (boxes1[:, 2] - boxes1[:, 0]) * (boxes1[:, 3] - boxes1[:, 1])
    area2 = (boxes2[:, 2] - boxes2[:, 0]) * (boxes2[:, 3] - boxes2[:, 1])
    lt_x = torch.max(boxes1[:, 0], boxes2[:, 0])
    lt_y = torch.max(boxes1[:, 1], boxes2[:, 1])
    rb_x = torch.min(boxes1[:, 2], boxes2[:, 2])
    rb_y = torch.min(boxes1[:, 3], boxes2[:, 3])
    w = (rb_x - lt_x).clamp(min=0)
    h = (rb_y - lt_y).clamp(min=0)
    inter = w * h
    union = area1 + area2 - inter
    return inter / union


def lerp(x, y, w: float):
    return w * x + (1 - w) * y


def gelu(x):
    return x * 0.5 * (1.0 + torch.erf(x * 0.7071067811865476))


def bias_gelu(x, bias):
    y = x + bias
    return y * 0.5 * (1.0 + torch.erf(y * 0.7071067811865476))


def softmax(x):
    return torch.softmax(x, dim=-1)


def layer_norm(x, weight, bias):
    return F.layer_norm(x, [x.size(-1)], weight, bias, 1e-5)


def mlp(x, w1, b1, w2, b2):
    return F.linear(torch.relu(F.linear(x, w1, b1)), w2, b2)


# --- Inputs ---------------------------------------------------------------

ROW_COLS = 1024   # columns of the row-wise workloads (softmax, layer_norm, bias_gelu)
MLP_WIDTH = 256   # mlp: in, hidden and out features


def rows_cols(n):
    """Splits n elements into rows of ROW_COLS columns (one row of n if smaller)."""
    cols = min(ROW_COLS, n)
    if n % cols:
        raise ValueError(f"{n} elements are not a whole number of rows of {cols}")
    return n // cols, cols


def _boxes(g, count):
    """count boxes (x0, y0, x1, y1) with x0 < x1 and y0 < y1, so no union is 0."""
    lo = torch.rand(count, 2, generator=g) * 100
    size = torch.rand(count, 2, generator=g) * 20 + 1
    return torch.cat([lo, lo + size], dim=1).contiguous()


def make_inputs(name, n, seed=DEFAULT_SEED):
    """The arguments of workload `name` for N = n elements, in call order."""
    g = torch.Generator().manual_seed(seed)
    if name == "ratio_iou":
        if n % 4:
            raise ValueError("ratio_iou needs a multiple of 4 elements")
        return [_boxes(g, n // 4), _boxes(g, n // 4)]
    if name == "lerp":
        return [torch.randn(n, generator=g), torch.randn(n, generator=g), 0.3]
    if name == "gelu":
        return [torch.randn(n, generator=g) * 2]
    rows, cols = rows_cols(n)
    if name == "bias_gelu":
        return [torch.randn(rows, cols, generator=g) * 2, torch.randn(cols, generator=g)]
    if name == "softmax":
        return [torch.randn(rows, cols, generator=g) * 2]
    if name == "layer_norm":
        return [torch.randn(rows, cols, generator=g) * 2 + 1,
                1 + 0.1 * torch.randn(cols, generator=g),
                0.1 * torch.randn(cols, generator=g)]
    if name == "mlp":
        if n % MLP_WIDTH:
            raise ValueError(f"mlp needs a multiple of {MLP_WIDTH} elements")
        k = MLP_WIDTH
        bound = 1 / k ** 0.5  # nn.Linear's initialisation range

        def uniform(*shape):
            return (torch.rand(*shape, generator=g) * 2 - 1) * bound
        return [torch.randn(n // k, k, generator=g), uniform(k, k), uniform(k),
                uniform(k, k), uniform(k)]
    raise KeyError(name)


def arg_shapes(name, n):
    """The shapes of make_inputs(name, n) (None for a float argument),
    without making the tensors: what an ahead-of-time compilation needs."""
    if name == "ratio_iou":
        return [(n // 4, 4), (n // 4, 4)]
    if name == "lerp":
        return [(n,), (n,), None]
    if name == "gelu":
        return [(n,)]
    rows, cols = rows_cols(n)
    if name == "bias_gelu":
        return [(rows, cols), (cols,)]
    if name == "softmax":
        return [(rows, cols)]
    if name == "layer_norm":
        return [(rows, cols), (cols,), (cols,)]
    if name == "mlp":
        k = MLP_WIDTH
        return [(n // k, k), (k, k), (k,), (k, k), (k,)]
    raise KeyError(name)


# name -> (function, one line description)
WORKLOADS = {
    "ratio_iou": (ratio_iou, "IoU of two [N/4, 4] box tensors (pointwise, strided reads)"),
    "lerp": (lerp, "w * x + (1 - w) * y, x and y [N], scalar w"),
    "gelu": (gelu, "x * 0.5 * (1 + erf(x / sqrt 2)), x [N]"),
    "bias_gelu": (bias_gelu, "gelu(x + bias), x [N/1024, 1024], bias [1024]"),
    "softmax": (softmax, "softmax over the last dim, [N/1024, 1024]"),
    "layer_norm": (layer_norm, "F.layer_norm over the last dim 1024, weight and bias"),
    "mlp": (mlp, "linear-relu-linear, x [N/256, 256], 256 hidden: compute-bound"),
}


def script(name):
    """torch.jit.script of the workload's function: a new compilation each
    call, with its own profiling executor (torch.jit.script would otherwise
    return the function it compiled before, optimised as it was then)."""
    fn = WORKLOADS[name][0]
    fn.__disable_jit_function_caching__ = True
    return torch.jit.script(fn)


def graph_text(name):
    """The scripted function's inlined graph as PyTorch prints it, with this
    file's path shortened to its name (as the corpus does with source.py)."""
    text = str(script(name).inlined_graph)
    return text.replace(os.path.abspath(__file__), os.path.basename(__file__))


def parse_size(text):
    """'4K' -> 4096, '1M' -> 1048576, '5000' -> 5000."""
    text = text.strip().upper()
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
    return int(text[:-1] if scale > 1 else text) * scale


def size_label(n):
    """4096 -> '4K', 1048576 -> '1M', 5000 -> '5000'."""
    for unit, scale in (("M", 1 << 20), ("K", 1 << 10)):
        if n % scale == 0:
            return f"{n // scale}{unit}"
    return str(n)


def nbytes(values):
    """Bytes of the tensors among values (scalars count as nothing)."""
    return sum(v.numel() * v.element_size() for v in values if torch.is_tensor(v))


def prepare(name, n, directory, seed=DEFAULT_SEED):
    """Writes graph.txt, in*.npy and meta.json of (name, n) to directory,
    unless a case with the same name, N, seed and format is already there.
    Returns (args, meta): the arguments as PyTorch values, and meta.json."""
    args = make_inputs(name, n, seed)
    meta_path = os.path.join(directory, "meta.json")
    if os.path.exists(meta_path):
        with open(meta_path) as f:
            meta = json.load(f)
        if (meta.get("workload"), meta.get("n"), meta.get("seed"),
                meta.get("format")) == (name, n, seed, FORMAT_VERSION):
            return args, meta
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "graph.txt"), "w") as f:
        f.write(graph_text(name))
    entries, k = [], 0
    for v in args:
        if torch.is_tensor(v):
            file = f"in{k}.npy"
            np.save(os.path.join(directory, file), v.numpy())
            entries.append({"kind": "tensor", "file": file, "shape": list(v.shape),
                            "dtype": "float32"})
            k += 1
        else:
            entries.append({"kind": type(v).__name__, "value": v})
    meta = {"workload": name, "n": n, "seed": seed, "format": FORMAT_VERSION,
            "description": WORKLOADS[name][1], "args": entries}
    with open(meta_path, "w") as f:
        json.dump(meta, f, indent=1)
    return args, meta


def cli_inputs(meta, directory):
    """The `--input` arguments of tsmlir-run (and handwritten) for a case:
    tensor files and scalar values, in the function's argument order."""
    out = []
    for a in meta["args"]:
        value = os.path.join(directory, a["file"]) if a["kind"] == "tensor" else repr(a["value"])
        out += ["--input", value]
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("workload", nargs="?", choices=sorted(WORKLOADS))
    p.add_argument("size", nargs="?", help="elements: 4K, 64K, 1M, 16M or a number")
    p.add_argument("directory", nargs="?")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED)
    p.add_argument("--list", action="store_true", help="list the workloads")
    a = p.parse_args()
    if a.list or not a.directory:
        for name, (_, doc) in WORKLOADS.items():
            print(f"{name:<12} {doc}")
        return
    _, meta = prepare(a.workload, parse_size(a.size), a.directory, a.seed)
    print(" ".join(["graph.txt"] + cli_inputs(meta, a.directory)))


if __name__ == "__main__":
    main()
