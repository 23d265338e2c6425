#!/usr/bin/env python3
"""Writes a synthetic TorchScript graph of N nodes, printed as PyTorch prints
graphs, for measuring compile time as graphs grow.

The graph takes two float tensors and applies pointwise ops (add, mul, sub,
relu, tanh, sigmoid, neg, clamp) in a chain, each op also reading an earlier
value now and then, with a reduction (sum over the last dimension, then
broadcast back) every 500 nodes, so that fusion forms many groups rather
than one. Node counts include the prim::Constant nodes.

Usage: synthetic_graph.py N > graph.txt
"""
import random
import sys


def main():
    n = int(sys.argv[1])
    rng = random.Random(0)
    lines = ["graph(%x.1 : Tensor,", "      %y.1 : Tensor):"]
    lines.append("  %one : int = prim::Constant[value=1]()")
    lines.append("  %half : float = prim::Constant[value=0.5]()")
    lines.append("  %lo : float = prim::Constant[value=-2.]()")
    lines.append("  %hi : float = prim::Constant[value=2.]()")
    lines.append("  %dim : int[] = prim::Constant[value=[-1]]()")
    lines.append("  %keep : bool = prim::Constant[value=1]()")
    lines.append("  %none : NoneType = prim::Constant()")
    values = ["%x.1", "%y.1"]
    count = 7
    i = 0
    while count < n - 1:
        a = values[-1]
        b = values[rng.randrange(max(0, len(values) - 20), len(values))]
        out = "%%v%d" % i
        i += 1
        if count % 500 == 499:
            line = "  %s : Tensor = aten::sum(%s, %%dim, %%keep, %%none)" % (out, a)
        else:
            op = rng.choice(["add", "mul", "sub", "relu", "tanh", "sigmoid",
                             "neg", "clamp", "mul_scalar"])
            if op in ("add", "sub"):
                line = "  %s : Tensor = aten::%s(%s, %s, %%one)" % (out, op, a, b)
            elif op == "mul":
                line = "  %s : Tensor = aten::mul(%s, %s)" % (out, a, b)
            elif op == "mul_scalar":
                line = "  %s : Tensor = aten::mul(%s, %%half)" % (out, a)
            elif op == "clamp":
                line = "  %s : Tensor = aten::clamp(%s, %%lo, %%hi)" % (out, a)
            else:
                line = "  %s : Tensor = aten::%s(%s)" % (out, op, a)
        lines.append(line)
        values.append(out)
        count += 1
    lines.append("  %%out : Tensor = aten::add(%s, %%x.1, %%one)" % values[-1])
    lines.append("  return (%out)")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
