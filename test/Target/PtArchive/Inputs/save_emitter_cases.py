#!/usr/bin/env python3
"""Saves small archives for emitter.test into OUT_DIR.

    save_emitter_cases.py OUT_DIR
"""
import os
import sys
from typing import Optional

import torch


class Methods(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.k = 3
        self.bias: Optional[torch.Tensor] = None

    # The module's parameter need not be called `self`.
    def forward(s, x, scale: float = 2.0):
        y = x * scale + s.k
        if s.bias is not None:
            y = y + s.bias
        return y

    @torch.jit.export
    def other(self, x, w: float):
        return x * (1 - w)


class NoGrad(torch.nn.Module):
    # Saved as `_0 = no_grad.__new__(no_grad)`, `(_0).__init__()` and
    # `with _0:` around the block.
    def forward(self, x):
        y = x * 2
        with torch.no_grad():
            z = y.relu()
        return y, z


@torch.jit.script
class Box(object):
    def __init__(self, v: float):
        self.v = v


class UserObject(torch.nn.Module):
    # Saved as `Box.__new__(Box)` and `(b).__init__(2.)`: refused.
    def forward(self, x):
        b = Box(2.0)
        return x * b.v


out = sys.argv[1]
torch.jit.script(Methods()).save(os.path.join(out, "methods.pt"))
torch.jit.script(NoGrad()).save(os.path.join(out, "nograd.pt"))
torch.jit.script(UserObject()).save(os.path.join(out, "object.pt"))
