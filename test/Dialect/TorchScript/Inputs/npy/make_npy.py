#!/usr/bin/env python3
# Writes the small .npy files the ts-specialize tests read (with NumPy; run
# from this directory: /usr/bin/python3 make_npy.py). Only the headers matter
# to the tests; the data are zeros.
import numpy as np
from numpy.lib import format as fmt


def write(name, array, version=None):
    with open(name, "wb") as f:
        fmt.write_array(f, array, version=version, allow_pickle=False)


write("f32_2x3.npy", np.zeros((2, 3), np.float32))
write("i64_4.npy", np.zeros((4,), np.int64))
write("bool_2x3.npy", np.zeros((2, 3), bool))
write("f64_scalar.npy", np.zeros((), np.float64))
write("f16_2x3_v2.npy", np.zeros((2, 3), np.float16), version=(2, 0))
write("u8_3_v3.npy", np.zeros((3,), np.uint8), version=(3, 0))
write("f32_3x2_fortran.npy", np.asfortranarray(np.zeros((3, 2), np.float32)))
write("f32_2x3_bigendian.npy", np.zeros((2, 3), ">f4"))
write("u16_4.npy", np.zeros((4,), np.uint16))  # no PyTorch dtype
# Broken files.
with open("not_npy.npy", "wb") as f:
    f.write(b"PK\x03\x04 this is a zip file")
with open("f32_2x3.npy", "rb") as f:
    whole = f.read()
with open("truncated_header.npy", "wb") as f:
    f.write(whole[:40])
header = b"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1, }"
header += b" " * (64 - 10 - len(header) - 1) + b"\n"
with open("unknown_key.npy", "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header +
            b"\0" * 8)
