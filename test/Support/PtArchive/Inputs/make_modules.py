"""Writes .pt archives with torch.jit.save for the tests of the .pt readers.

    make_modules.py OUT_DIR

linear.pt (nn.Linear), block.pt (Conv2d + BatchNorm2d and attributes of
several kinds), frozen.pt (the same block, frozen: its tensors are in
constants.pkl), function.pt (a scripted function); wrong-storage.pt
(linear.pt with a storage member 8 bytes short), wrong-size.pt (linear.pt
whose headers declare a storage member 8 bytes shorter than its data), and
legacy.pt (torch.save's format before PyTorch 1.6).
"""

import os
import struct
import sys
import zipfile
from typing import Dict, List, Optional, Tuple

import torch

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
torch.manual_seed(0)


class Block(torch.nn.Module):
    names: List[str]
    table: Dict[str, int]
    pair: Tuple[int, float]
    maybe: Optional[int]

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3)
        self.bn = torch.nn.BatchNorm2d(4)
        self.scale = 0.5
        self.count = -3
        self.flag = True
        self.names = ["a", "b"]
        self.table = {"x": 1}
        self.pair = (2, 0.25)
        self.maybe = None
        self.register_buffer("odd", torch.arange(12.0).reshape(3, 4)[:, 1:].t())

    def forward(self, x):
        return self.bn(self.conv(x)) * self.scale


def double(x: torch.Tensor, n: int) -> torch.Tensor:
    return x * n


def path(name):
    return os.path.join(OUT, name)


torch.jit.save(torch.jit.script(torch.nn.Linear(3, 4)), path("linear.pt"))
torch.jit.save(torch.jit.script(Block().eval()), path("block.pt"))
torch.jit.save(torch.jit.freeze(torch.jit.script(Block().eval())),
               path("frozen.pt"))
torch.jit.save(torch.jit.script(double), path("function.pt"))
torch.save(torch.ones(2), path("legacy.pt"),
           _use_new_zipfile_serialization=False)

# linear/data/0 (the weight: 12 floats, 48 bytes) with 40 bytes.
with zipfile.ZipFile(path("linear.pt")) as source, \
        zipfile.ZipFile(path("wrong-storage.pt"), "w") as target:
    for info in source.infolist():
        data = source.read(info)
        if info.filename == "linear/data/0":
            data = data[:40]
        target.writestr(info.filename, data)

# The same member, its 48 bytes intact, but its central header declaring 40
# (uncompressed). torch.jit.save writes the sizes in a data descriptor after
# the data (flag bit 3), not in the local header: the descriptor says 40 too.
data = bytearray(open(path("linear.pt"), "rb").read())
name = b"linear/data/0"
central = data.find(b"PK\x01\x02")
while (struct.unpack_from("<H", data, central + 28)[0] != len(name) or
       data[central + 46:central + 46 + len(name)] != name):
    central = data.find(b"PK\x01\x02", central + 4)
    assert central >= 0, "no central header for " + name.decode()
assert struct.unpack_from("<I", data, central + 24)[0] == 48
struct.pack_into("<I", data, central + 24, 40)
local = struct.unpack_from("<I", data, central + 42)[0]
name_length, extra_length = struct.unpack_from("<HH", data, local + 26)
descriptor = local + 30 + name_length + extra_length + 48
if data[descriptor:descriptor + 4] == b"PK\x07\x08":
    assert struct.unpack_from("<I", data, descriptor + 12)[0] == 48
    struct.pack_into("<I", data, descriptor + 12, 40)
open(path("wrong-size.pt"), "wb").write(bytes(data))
