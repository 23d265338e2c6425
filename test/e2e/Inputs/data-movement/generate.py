#!/usr/bin/env python3
"""Writes the data-movement and control-flow cases of
test/e2e/data-movement-cpu.test: for each function below, the graph PyTorch
prints for it when scripted (graph.txt), its inputs (inN.npy), eager
PyTorch's outputs (outN.npy) and a meta.json in the corpus's format
(test/Corpus/README.md), so that run_corpus.py runs them.

Regenerate with Debian's python3-torch:
  /usr/bin/python3 test/e2e/Inputs/data-movement/generate.py test/e2e/Inputs/data-movement
"""
import json
import os
import sys

import numpy as np
import torch


def permute(x):
    a = x.permute(2, 0, 1).contiguous().view(4, 6)
    b = x.transpose(0, 1)
    c = x[0].t()
    return a, b, c


def cat_stack(x, y, e):
    a = torch.cat([x, y], dim=-1)
    b = torch.cat([x, x * 2.0], 0)
    c = torch.stack([x, y * 3.0], dim=1)
    d = torch.cat([e, e * 2.0, torch.zeros(0)])
    return a, b, c, d


def slices(x, n: int):
    a = x[1:-1:2, ::3]
    b = x[-3:]
    c = x[:, 5:100]
    d = x[:, -1]
    e = x.narrow(1, 2, 3)
    f = x[n]
    g = x[n:n + 2]
    return a, b, c, d, e, f, g


def chunks(x):
    a, b, c = x.chunk(3, dim=1)
    parts = torch.split(x, 4, dim=1)
    rows = x.unbind(0)
    r0, r1, r2, r3, r4 = x.unbind(0)
    return a, b, c, parts[-1], rows[1], r4, len(parts)


def broadcasts(x, y):
    a = x.repeat(2, 3)
    b = y.unsqueeze(0).expand(4, -1, -1)
    c = y.expand_as(x.unsqueeze(0).expand(2, 3, 5))
    d = torch.broadcast_to(x[:, :1], (3, 5))
    return a, b, c, d


def index(x, i, j):
    a = torch.index_select(x, 1, i)
    b = torch.gather(x, 1, j)
    c = x[i - 2]
    d = torch.index_select(x, 0, i[1])
    return a, b, c, d


def sizes(x):
    return x * (x.size(0) * x.dim() + x.numel() + x.size(-1))


def views_in_group(x, y):
    z = x * 2.0 + 1.0
    return z[:, 0] * y[:, 1] + z.unsqueeze(1)[:, 0, 2], (z[1:, ::2] - 1.0).sigmoid()


def while_data(x, limit: float):
    s = x[0, 0]
    i = 0
    while float(s) < limit:
        x = x * 2.0
        s = x[0, 0]
        i += 1
    return x, i


def while_count(x, n: int):
    i = 0
    while i < n:
        x = x + 1.0
        i += 1
    return x


def loop_break(x, n: int):
    for i in range(n):
        if i >= 2:
            break
        x = x * 3.0
    return x


def raise_negative(x, n: int):
    if n < 0:
        raise ValueError("n must not be negative")
    return x * n


def if_tuple(x, c: bool):
    if c:
        a, b = x * 2.0, x + 1.0
    else:
        a, b = x - 1.0, x / 2.0
    return a + b


CASES = [
    (permute, [torch.randn(2, 3, 4)]),
    (cat_stack, [torch.randn(2, 3), torch.randn(2, 3), torch.randn(5)]),
    (slices, [torch.randn(7, 9), 3]),
    (chunks, [torch.randn(5, 10)]),
    (broadcasts, [torch.randn(3, 5), torch.randn(3, 5)]),
    (index, [torch.randn(4, 6), torch.tensor([5, 0, 2]),
             torch.tensor([[1, 0], [5, 5], [3, 2], [0, 4]])]),
    (sizes, [torch.randn(4, 6)]),
    (views_in_group, [torch.randn(6, 4), torch.randn(6, 4)]),
    (while_data, [torch.rand(4, 3) + 0.1, 50.0]),
    (while_count, [torch.randn(3), 4]),
    (loop_break, [torch.randn(3), 5]),
    (raise_negative, [torch.randn(3), 4]),
    (if_tuple, [torch.randn(3), False]),
]


def main():
    out = sys.argv[1]
    torch.manual_seed(0)
    for fn, args in CASES:
        d = os.path.join(out, fn.__name__)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "graph.txt"), "w") as f:
            f.write(str(torch.jit.script(fn).graph))
        names = fn.__code__.co_varnames[:fn.__code__.co_argcount]
        inputs, scalars, k = [], {}, 0
        for name, a in zip(names, args):
            if isinstance(a, torch.Tensor):
                np.save(os.path.join(d, "in%d.npy" % k), a.numpy())
                inputs.append({"name": name, "kind": "tensor",
                               "file": "in%d.npy" % k})
                k += 1
            else:
                inputs.append({"name": name, "kind": type(a).__name__})
                scalars[name] = a
        result = fn(*args)
        outs = list(result) if isinstance(result, tuple) else [result]
        for i, o in enumerate(outs):
            o = o if isinstance(o, torch.Tensor) else torch.tensor(o)
            np.save(os.path.join(d, "out%d.npy" % i), o.numpy())
        meta = {"name": fn.__name__, "inputs": inputs, "scalar_args": scalars,
                "n_outputs": len(outs)}
        with open(os.path.join(d, "meta.json"), "w") as f:
            json.dump(meta, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
