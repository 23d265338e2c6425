"""Saves modules with torch.jit.save and extracts the source they hold.

    python3 save_modules.py OUT

For each module below, writes the archive's code/**/*.py to OUT/<name>/...
(the archives themselves stay in memory) and prints one line per module
with the number of files. Scripted torchvision models (random weights),
some of them frozen or traced, torch.nn layers, and a module of our own
that makes PyTorch print the rarer constructs: NamedTuple, Enum, interface
and script classes, `with`, `fork` (a nested def), annotated locals,
`getattr`, string escapes, complex and extreme numbers.
"""
import enum
import io
import os
import sys
import zipfile
from typing import Dict, List, NamedTuple, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision


class Point(NamedTuple):
    x: torch.Tensor
    n: int


class Color(enum.Enum):
    RED = 1
    GREEN = 2
# A str-valued Enum is left out: PyTorch 1.13 prints its values without
# escaping quotes (`A = "a"b"` for 'a"b'), which no parser reads.


@torch.jit.interface
class ModuleIface(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        pass


@torch.jit.interface
class ClassIface(object):
    def run(self, x: torch.Tensor, k: int) -> torch.Tensor:
        pass


@torch.jit.script
class Holder(object):
    def __init__(self, k: int):
        self.k = k
        self.items: List[int] = []

    def run(self, x: torch.Tensor, k: int) -> torch.Tensor:
        return x + k + self.k


class Twice(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * 2


def work(x: torch.Tensor) -> torch.Tensor:
    return x * 2


class Rare(nn.Module):
    __constants__ = ["eps", "pad"]

    def __init__(self):
        super().__init__()
        self.eps = 1e-5
        self.pad = (1, 1)
        self.impl: ModuleIface = Twice()
        self.mods = nn.ModuleDict({"a": Twice(), "b": Twice()})
        self.seq = nn.Sequential(nn.ReLU(), nn.Tanh())
        self.register_buffer("running_mean", torch.zeros(3))
        self.s = "tab\t nl\n cr\r q\" sq' bs\\ ctl\x01 del\x7f"
        self.c = 1 - 2j
        self.big = [1e300, -0.0, 1e-310, float("inf"), float("-inf")]
        self.neg = -9223372036854775808

    def helper(self, x: torch.Tensor, scale: float = 2.,
               mask: Optional[torch.Tensor] = None) -> Tuple[torch.Tensor, int]:
        if mask is not None:
            x = x * mask
        return x * scale, 3

    @torch.jit.export
    def loops(self, xs: List[torch.Tensor],
              d: Dict[str, torch.Tensor]) -> Point:
        total = torch.zeros(1)
        for x in xs:
            if x.dim() > 2 and x.dim() < 5 or not x.is_cuda:
                total = total + x.sum()
                continue
            elif x.dim() == 7:
                break
            else:
                total -= 1
        i = 0
        while i < 10 and i != 3:
            i += 1
            i = (i << 1) // 2 % 7 | 3 & 5 ^ 1
        for k, v in d.items():
            total = total + v
        for j, t in enumerate(xs):
            total += t[0, 1:3, ::2, ..., None]
        assert len(xs) > 0, "empty"
        if Color.RED == Color.GREEN:
            raise ValueError("bad {}".format(i))
        h: ClassIface = Holder(3)
        return Point(h.run(total, i) + float("nan"), len(self.s))

    def forward(self, x: torch.Tensor, key: str = "a", c: complex = 1 - 2j,
                t: Tuple[int, float] = (1, 2.)) -> torch.Tensor:
        with torch.no_grad():
            x = x + 1
        fut = torch.jit.fork(work, x)
        y = torch.jit.wait(fut)
        y, n = self.helper(y, mask=y)
        mod: ModuleIface = self.mods[key]
        y = self.impl.forward(mod.forward(y)) + self.seq(y)
        y = F.relu(y + self.running_mean * self.eps)
        y = y[:, 1] + y[..., 0:1] + y[None] + x[y > 0].sum()
        ys = torch.jit.annotate(List[torch.Tensor], [])
        ys.append(y)
        return (torch.cat(ys) + self.pad[1] + n + t[0] + self.neg +
                self.big[0] + torch.tensor(c).imag + len(self.s))


class Constants(nn.Module):
    """Frozen, its attributes become literals in the code."""

    def __init__(self):
        super().__init__()
        self.s = "tab\t nl\n cr\r q\" sq' bs\\ ctl\x01 del\x7f"
        self.big = [1e300, -0.0, 1e-310, 0.1, float("inf"), float("-inf"),
                    float("nan")]
        self.c = 1.5 - 2j
        self.neg = -9223372036854775808
        self.d = {"a": (1, 2.5, True, None)}

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        print(self.s, self.big, self.d, self.c)
        return x + self.neg


def modules():
    tv = torchvision.models
    scripted = [
        ("resnet18", tv.resnet18),
        ("mobilenet_v3_small", tv.mobilenet_v3_small),
        ("squeezenet1_0", tv.squeezenet1_0),
        ("densenet121", tv.densenet121),
        ("shufflenet_v2_x0_5", tv.shufflenet_v2_x0_5),
        ("efficientnet_b0", tv.efficientnet_b0),
        ("transformer_encoder_layer",
         lambda: nn.TransformerEncoderLayer(16, 2)),
        ("lstm", lambda: nn.LSTM(4, 8, 2)),
        ("multihead_attention", lambda: nn.MultiheadAttention(16, 2)),
        ("rare", Rare),
    ]
    for name, make in scripted:
        yield name, torch.jit.script(make())
    yield "resnet18_frozen", torch.jit.freeze(
        torch.jit.script(tv.resnet18().eval()))
    yield "constants_frozen", torch.jit.freeze(
        torch.jit.script(Constants().eval()))
    yield "mobilenet_v3_small_traced", torch.jit.trace(
        tv.mobilenet_v3_small().eval(), torch.randn(1, 3, 32, 32))

    @torch.jit.script
    def function(x: torch.Tensor, n: int) -> torch.Tensor:
        for _ in range(n):
            x = torch.relu(x) if n > 2 else x.clone()
        return x.sum(dim=[0, 1], keepdim=False)

    yield "function", function


def main():
    out = sys.argv[1]
    torch.manual_seed(0)
    for name, module in modules():
        archive = io.BytesIO()
        torch.jit.save(module, archive)
        count = 0
        with zipfile.ZipFile(archive) as z:
            for member in sorted(z.namelist()):
                parts = member.split("/")
                if len(parts) < 3 or parts[1] != "code" or \
                        not member.endswith(".py"):
                    continue
                path = os.path.join(out, name, *parts[2:])
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as f:
                    f.write(z.read(member))
                count += 1
        print("%s: %d files" % (name, count))


if __name__ == "__main__":
    main()
