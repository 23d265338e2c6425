#!/usr/bin/env python3
"""Writes the TorchScript graphs that the importer's grammar tests read
(test/Target/TorchScript/Inputs/*.txt), printed by PyTorch itself.

    /usr/bin/python3 scripts/make_grammar_graphs.py

Needs PyTorch (Debian: python3-torch). Each graph exercises forms the corpus
cases do not: every value type, every constant kind, escapes, containers,
loops with several carried values, exceptions, and frozen buffers of each
dtype (printed inline when small).
"""

import os
import re
from typing import Dict, List, NamedTuple, Optional, Tuple, Union

import torch

OUT = os.path.join(os.path.dirname(__file__), "..", "test", "Target",
                   "TorchScript", "Inputs")


class Pair(NamedTuple):
    first: torch.Tensor
    second: int


def types(x: torch.Tensor, d: Dict[str, torch.Tensor], u: Union[int, str],
          o: Optional[List[int]], t: Tuple[int, float],
          fut: torch.jit.Future[int], c: complex, dev: torch.device,
          ts: List[torch.Tensor], ot: Optional[torch.Tensor]) -> Pair:
    s = "quote\" backslash\\ newline\n tab\t bell\x07 byte\x01 e\u00e9"
    print(s)
    y = x + d["w"]
    if ot is not None:
        y = y + ot
    n = 0
    if o is not None:
        n = len(o)
    return Pair(y + t[1] + len(ts), n + t[0])


def constants(x: torch.Tensor) -> Tuple[torch.Tensor, List[float], List[bool],
                                        List[str], Tuple[int, str], int]:
    floats = [0.5, 2.0, 1e-05, -0.0, float("inf"), float("-inf"), 1e10,
              0.1]
    bools = [True, False]
    strs = ["a", "b"]
    pair = (1, "x")
    big = 9223372036854775807
    y = x.clamp(min=-1.5, max=2.5).to(torch.float64).to(dtype=torch.float32)
    z = torch.zeros([2, 3], dtype=torch.int64, device="cpu")
    return y + z.sum(), floats, bools, strs, pair, big


def control(x: torch.Tensor, n: int) -> Tuple[torch.Tensor, int]:
    acc = x
    count = 0
    for i in range(n):
        if i % 2 == 0:
            acc = acc * 2.0
            count += 1
        else:
            acc = acc - 1
        while count > 100:
            count -= 1
    if acc.sum() > 0:
        raise ValueError("positive: {}".format(n))
    return acc, count


class Buffers(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("f", torch.tensor([[1.0, 2.0], [3.0, 4.5]]))
        self.register_buffer("small", torch.tensor([1e-8, 3e-9]))
        self.register_buffer("large", torch.tensor([123456.0, 1.5]))
        self.register_buffer("i", torch.tensor([1, 2, 300]))
        self.register_buffer("b", torch.tensor([True, False]))
        self.register_buffer("h", torch.tensor([1.5, 2.0],
                                               dtype=torch.float16))
        self.register_buffer("scalar", torch.tensor(0.25))
        self.register_buffer("one", torch.tensor([7], dtype=torch.int64))
        self.register_buffer("mixed", torch.tensor([-5.0, 0.125, 3.0]))
        self.register_buffer("big", torch.randn(4, 4))

    def forward(self, x):
        # Returned as they are, so that freezing keeps each as a constant.
        return (x + self.f, self.small, self.large, self.i, self.b, self.h,
                self.scalar, self.one, self.mixed, self.big)


def clean(text):
    """Source comments name this script's path; keep only its file name."""
    return re.sub(r"# [^\n]*/make_grammar_graphs\.py:", "# grammar.py:", text)


def main():
    outputs = {
        "types.txt": torch.jit.script(types).graph,
        "constants.txt": torch.jit.script(constants).graph,
        "control.txt": torch.jit.script(control).graph,
        "buffers.txt": torch.jit.freeze(
            torch.jit.script(Buffers()).eval()).graph,
    }
    for name, graph in outputs.items():
        with open(os.path.join(OUT, name), "w") as f:
            f.write(clean(str(graph)))
        print("wrote", name)


if __name__ == "__main__":
    main()
