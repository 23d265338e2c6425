#!/usr/bin/env python3
"""Writes the valid .pt archives the malformed-input suite varies (the
archives under pt/ come from these, by make_inputs.py, without torch):

    Inputs/relu_fn.pt       torch.jit.save of a scripted function,
                            `def f(x): return torch.relu(x) + 1`
    Inputs/linear_frozen.pt torch.jit.save of a scripted and frozen module
                            with a Linear(3, 4) layer and a relu
    Inputs/legacy.pt        torch.save(..., _use_new_zipfile_serialization=
                            False) of a tensor: the raw-pickle format of
                            PyTorch before 1.6

The files are committed; run this by hand, with a Python that has torch
(Debian's python3-torch: /usr/bin/python3), only to change them:

    /usr/bin/python3 test/Malformed/Inputs/make_pt_inputs.py

torch.jit.save stamps no time into the archive, but another torch version
may write other bytes (and other names in the code): run make_inputs.py
after this, and check the expected texts of the pt/ lines of manifest.txt.
"""
import os

import torch

HERE = os.path.dirname(os.path.abspath(__file__))


@torch.jit.script
def f(x):
    return torch.relu(x) + 1


class Linear(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3, 4)

    def forward(self, x):
        return torch.relu(self.fc(x))


def main():
    torch.manual_seed(0)
    torch.jit.save(f, os.path.join(HERE, "relu_fn.pt"))
    module = torch.jit.freeze(torch.jit.script(Linear().eval()))
    torch.jit.save(module, os.path.join(HERE, "linear_frozen.pt"))
    torch.save(torch.arange(6, dtype=torch.float32).reshape(2, 3),
               os.path.join(HERE, "legacy.pt"),
               _use_new_zipfile_serialization=False)


if __name__ == "__main__":
    main()
