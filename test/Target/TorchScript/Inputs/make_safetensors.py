"""Writes a safetensors file with one zero-filled tensor.

    python3 make_safetensors.py OUT NAME DTYPE DIM,DIM,...
"""
import json
import struct
import sys

SIZES = {"F32": 4, "F64": 8, "F16": 2, "I64": 8, "I32": 4, "BOOL": 1}


def main():
    out, name, dtype, dims = sys.argv[1:5]
    shape = [int(d) for d in dims.split(",") if d]
    count = 1
    for d in shape:
        count *= d
    size = count * SIZES[dtype]
    header = json.dumps({name: {"dtype": dtype, "shape": shape,
                                "data_offsets": [0, size]}}).encode()
    header += b" " * (-len(header) % 8)
    with open(out, "wb") as f:
        f.write(struct.pack("<Q", len(header)) + header + bytes(size))


if __name__ == "__main__":
    main()
