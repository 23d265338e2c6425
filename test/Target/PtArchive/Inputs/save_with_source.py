#!/usr/bin/env python3
"""Saves `scale_shift` and `Shift` (defined in this file, at known lines)
with torch.jit.save into OUT_DIR, for debug-info.test: the archives'
.debug_pkl files map their code back to the lines below.

    save_with_source.py OUT_DIR
"""
import os
import sys

import torch


def scale_shift(x, s: float):
    y = torch.sigmoid(x) * s
    return y + 1


class Shift(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.b = torch.nn.Parameter(torch.ones(3))

    def forward(self, x):
        return torch.relu(x - self.b)


out = sys.argv[1]
torch.jit.save(torch.jit.script(scale_shift), os.path.join(out, "fn.pt"))
torch.jit.script(Shift()).save(os.path.join(out, "module.pt"))
