#!/usr/bin/env python3
"""Writes the generated inputs of the malformed-input suite: the .npy and
.safetensors files under npy/ and safetensors/, the TorchScript files that
are not text (ts/binary-*.txt, ts/non-utf8-*.txt) or too deeply nested to
write by hand (ts/deep-nested-*.txt), and the valid inputs they are
variations of (Inputs/x.npy, Inputs/params.safetensors).

The files are committed; run this again (plain python3, no numpy) only to
change them:

    python3 test/Malformed/make_inputs.py
"""
import json
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def write(relpath, data):
    path = os.path.join(HERE, relpath)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def f32(*values):
    return struct.pack("<%df" % len(values), *values)


# ---------------------------------------------------------------- .npy files

def npy_header(dict_text, version=1, magic=b"\x93NUMPY", pad=True):
    """The preamble and header of a .npy file whose dict is `dict_text`."""
    text = dict_text.encode("latin-1") if isinstance(dict_text, str) else dict_text
    length_bytes = 2 if version == 1 else 4
    if pad:
        total = len(magic) + 2 + length_bytes + len(text) + 1
        text += b" " * ((64 - total % 64) % 64) + b"\n"
    length = struct.pack("<H" if version == 1 else "<I", len(text))
    return magic + bytes([version, 0]) + length + text


def npy(dict_text, data=b"", **kwargs):
    return npy_header(dict_text, **kwargs) + data


def descr_dict(descr, shape, order="False"):
    return "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, order, shape)


X = f32(1, -2, 3, -4, 5, -6)  # a float32 [2, 3]
VALID = npy(descr_dict("<f4", "(2, 3)"), X)


def make_npy():
    write("Inputs/x.npy", VALID)
    cases = {
        # Framing.
        "empty.npy": b"",
        "bad-magic.npy": b"\x93NUMPX" + VALID[6:],
        "text-file.npy": b"x = [1, 2, 3]\n",
        "magic-only.npy": b"\x93NUMPY",
        "no-header-length.npy": b"\x93NUMPY\x01\x00\x40",
        "bad-version.npy": b"\x93NUMPY\x09\x09" + VALID[8:],
        "header-length-past-eof.npy": VALID[:8] + struct.pack("<H", 0xffff)
        + VALID[10:80],
        "v2-huge-header-length.npy": b"\x93NUMPY\x02\x00"
        + struct.pack("<I", 0xffffffff) + b"{'descr': '<f4'",
        "truncated-header.npy": VALID[:40],
        # The header dict.
        "header-not-dict.npy": npy("['<f4', False, (2, 3)]", X),
        "header-unterminated-string.npy": npy("{'descr': '<f4, 'shape': (2, 3)}", X),
        "header-missing-shape.npy": npy("{'descr': '<f4', 'fortran_order': False}", X),
        "header-missing-descr.npy": npy("{'fortran_order': False, 'shape': (2, 3)}", X),
        "header-unknown-key.npy": npy("{'descr': '<f4', 'fortran_order': False, "
                                      "'shape': (2, 3), 'strides': (12, 4)}", X),
        "header-trailing-text.npy": npy(descr_dict("<f4", "(2, 3)") + " junk", X),
        "header-bad-order.npy": npy(descr_dict("<f4", "(2, 3)", "Maybe"), X),
        "header-shape-not-tuple.npy": npy(descr_dict("<f4", "[2, 3]"), X),
        "header-shape-float.npy": npy(descr_dict("<f4", "(2.5, 3)"), X),
        "header-nul-bytes.npy": npy(b"{'descr': '<f4'\x00\x00\x00", X),
        "header-non-ascii.npy": npy(descr_dict("<f\xe94", "(2, 3)"), X),
        # Shapes.
        "negative-dim.npy": npy(descr_dict("<f4", "(-1, 3)"), X),
        "dim-beyond-int64.npy": npy(descr_dict("<f4", "(99999999999999999999, 3)"), X),
        "huge-shape-overflow.npy": npy(descr_dict("<f4", "(4294967296, 4294967296, 16)"), X),
        # 2^62 - 4 float32s: 2^64 - 16 bytes, which wraps when the header is
        # added to it.
        "huge-shape-wraps.npy": npy(descr_dict("<f4", "(4611686018427387900,)"), X),
        "huge-shape-no-data.npy": npy(descr_dict("<f4", "(1000000000000,)"), X),
        "shape-larger-than-data.npy": npy(descr_dict("<f4", "(100, 100)"), X),
        "shape-lies-fortran.npy": npy(descr_dict("<f4", "(3, 3)", "True"), X),
        "data-truncated.npy": VALID[:-5],
        "header-only.npy": npy_header(descr_dict("<f4", "(2, 3)")),
        # Dtypes.
        "dtype-complex.npy": npy(descr_dict("<c8", "(3,)"), X),
        "dtype-object.npy": npy(descr_dict("|O", "(2,)"), b"\0" * 16),
        "dtype-unicode.npy": npy(descr_dict("<U4", "(1,)"), b"\0" * 16),
        "dtype-structured.npy": npy("{'descr': [('a', '<f4'), ('b', '<i4')], "
                                    "'fortran_order': False, 'shape': (1,), }",
                                    b"\0" * 8),
        "dtype-bad-byte-order.npy": npy(descr_dict("!f4", "(2, 3)"), X),
        "dtype-item-size-zero.npy": npy(descr_dict("<f0", "(2, 3)"), X),
        "dtype-f3.npy": npy(descr_dict("<f3", "(2, 3)"), X),
        "dtype-f16-bytes.npy": npy(descr_dict("<f16", "(1,)"), b"\0" * 16),
        "dtype-u4.npy": npy(descr_dict("<u4", "(2, 3)"), X),
        "dtype-datetime.npy": npy(descr_dict("<M8[ns]", "(1,)"), b"\0" * 8),
        "dtype-huge-item-size.npy": npy(descr_dict("<i99999999999", "(1,)"), X),
        # Well-formed files that do not fit the graph (Inputs/typed.txt takes
        # a Float(2, 3)).
        "wrong-dtype-f64.npy": npy(descr_dict("<f8", "(2, 3)"), X + X),
        "wrong-dtype-i64.npy": npy(descr_dict("<i8", "(2, 3)"), X + X),
        "wrong-dtype-bool.npy": npy(descr_dict("|b1", "(2, 3)"), b"\1" * 6),
        "wrong-shape-3x2.npy": npy(descr_dict("<f4", "(3, 2)"), X),
        "wrong-rank-1d.npy": npy(descr_dict("<f4", "(6,)"), X),
        "wrong-rank-0d.npy": npy(descr_dict("<f4", "()"), f32(1)),
        "empty-tensor.npy": npy(descr_dict("<f4", "(0, 3)")),
        # For Inputs/add.txt with Inputs/x.npy: sizes that do not broadcast.
        "not-broadcastable-4x5.npy": npy(descr_dict("<f4", "(4, 5)"), X * 20),
    }
    for name, data in cases.items():
        write("npy/" + name, data)


# -------------------------------------------------------- .safetensors files

def safetensors(header, data, length=None):
    text = header if isinstance(header, bytes) else json.dumps(
        header, separators=(",", ":")).encode()
    if length is None:
        length = len(text)
    return struct.pack("<Q", length) + text + data


W = f32(*[0.1 * i for i in range(12)])  # fc.weight [4, 3]
BIAS = f32(0.5, -0.5, 0.25, -0.25)  # fc.bias [4]


def params(weight=None, bias=None, extra=None, data=W + BIAS, drop=()):
    header = {
        "__metadata__": {"format": "pt"},
        "fc.weight": {"dtype": "F32", "shape": [4, 3], "data_offsets": [0, 48]},
        "fc.bias": {"dtype": "F32", "shape": [4], "data_offsets": [48, 64]},
    }
    if weight is not None:
        header["fc.weight"] = weight
    if bias is not None:
        header["fc.bias"] = bias
    for name in drop:
        del header[name]
    if extra:
        header.update(extra)
    return safetensors(header, data)


def make_safetensors():
    write("Inputs/params.safetensors", params())
    valid = params()
    text = valid[8:8 + struct.unpack("<Q", valid[:8])[0]]
    cases = {
        # Framing.
        "empty.safetensors": b"",
        "too-short.safetensors": b"\x10\x00\x00",
        "header-length-past-eof.safetensors": struct.pack("<Q", 4096) + text,
        "header-length-huge.safetensors": struct.pack("<Q", 2**63 + 5) + text,
        "header-length-max.safetensors": b"\xff" * 8 + text,
        "header-length-zero.safetensors": struct.pack("<Q", 0) + text,
        "numpy-file.safetensors": VALID,
        # The JSON header.
        "header-not-json.safetensors": safetensors(b"not json at all", W),
        "header-truncated-json.safetensors": safetensors(text[:-9], W + BIAS),
        "header-json-array.safetensors": safetensors(b"[1, 2, 3]", W),
        "header-non-utf8.safetensors": safetensors(
            text.replace(b"fc.bias", b"fc.b\xffas"), W + BIAS),
        "header-deep-nesting.safetensors": safetensors(
            b"{\"a\":" + b"[" * 100000 + b"]" * 100000 + b"}", b""),
        "header-duplicate-key.safetensors": safetensors(
            text[:-1] + b",\"fc.bias\":{\"dtype\":\"F32\",\"shape\":[4],"
            b"\"data_offsets\":[0,16]}}", W + BIAS),
        "metadata-not-object.safetensors": safetensors(
            {"__metadata__": [1, 2],
             "fc.weight": {"dtype": "F32", "shape": [4, 3], "data_offsets": [0, 48]}},
            W),
        "metadata-not-string.safetensors": safetensors(
            {"__metadata__": {"format": 3},
             "fc.weight": {"dtype": "F32", "shape": [4, 3], "data_offsets": [0, 48]}},
            W),
        "entry-not-object.safetensors": params(weight=[4, 3]),
        # Tensor entries.
        "dtype-missing.safetensors": params(weight={"shape": [4, 3], "data_offsets": [0, 48]}),
        "dtype-unknown.safetensors": params(weight={"dtype": "F8_E4M3", "shape": [4, 3],
                                                    "data_offsets": [0, 48]}),
        "dtype-not-string.safetensors": params(weight={"dtype": 32, "shape": [4, 3],
                                                       "data_offsets": [0, 48]}),
        "shape-negative.safetensors": params(weight={"dtype": "F32", "shape": [-4, 3],
                                                     "data_offsets": [0, 48]}),
        "shape-float.safetensors": params(weight={"dtype": "F32", "shape": [4.0, 3],
                                                  "data_offsets": [0, 48]}),
        "shape-missing.safetensors": params(weight={"dtype": "F32", "data_offsets": [0, 48]}),
        "shape-huge.safetensors": params(weight={
            "dtype": "F32", "shape": [2**62, 2**62, 4], "data_offsets": [0, 48]}),
        "shape-wraps.safetensors": params(weight={
            "dtype": "F32", "shape": [2**62], "data_offsets": [0, 48]}),
        "shape-data-mismatch.safetensors": params(weight={
            "dtype": "F32", "shape": [4, 4], "data_offsets": [0, 48]}),
        "offsets-past-end.safetensors": params(bias={
            "dtype": "F32", "shape": [4], "data_offsets": [48, 4096 + 48]},
            extra={"pad": {"dtype": "U8", "shape": [4032], "data_offsets": [64, 4096]}}),
        "offsets-huge.safetensors": params(bias={
            "dtype": "F32", "shape": [4],
            "data_offsets": [2**64 - 8, 2**64 + 8]}),
        "offsets-reversed.safetensors": params(bias={
            "dtype": "F32", "shape": [4], "data_offsets": [64, 48]}),
        "offsets-overlap.safetensors": params(bias={
            "dtype": "F32", "shape": [4], "data_offsets": [32, 48]}),
        "offsets-same-range.safetensors": params(extra={
            "fc.weight2": {"dtype": "F32", "shape": [4, 3], "data_offsets": [0, 48]}}),
        "offsets-one-number.safetensors": params(bias={
            "dtype": "F32", "shape": [4], "data_offsets": [48]}),
        "offsets-negative.safetensors": params(bias={
            "dtype": "F32", "shape": [4], "data_offsets": [-16, 0]}),
        "offsets-missing.safetensors": params(bias={"dtype": "F32", "shape": [4]}),
        "data-truncated.safetensors": params()[:-10],
        # Well-formed files that do not fit Inputs/linear_module.txt and
        # Inputs/frozen_module.txt (fc.weight [4, 3] and fc.bias [4], F32).
        "missing-weight.safetensors": params(drop=["fc.weight"], bias={
            "dtype": "F32", "shape": [4], "data_offsets": [0, 16]}, data=BIAS),
        "dtype-mismatch-i32.safetensors": params(weight={
            "dtype": "I32", "shape": [4, 3], "data_offsets": [0, 48]}),
        "dtype-mismatch-f64.safetensors": safetensors({
            "fc.weight": {"dtype": "F64", "shape": [4, 3], "data_offsets": [0, 96]},
            "fc.bias": {"dtype": "F64", "shape": [4], "data_offsets": [96, 128]}},
            W + W + BIAS + BIAS),
        "shape-mismatch.safetensors": safetensors({
            "fc.weight": {"dtype": "F32", "shape": [3, 4], "data_offsets": [0, 48]},
            "fc.bias": {"dtype": "F32", "shape": [4], "data_offsets": [48, 64]}},
            W + BIAS),
        "weight-1d.safetensors": safetensors({
            "fc.weight": {"dtype": "F32", "shape": [12], "data_offsets": [0, 48]},
            "fc.bias": {"dtype": "F32", "shape": [4], "data_offsets": [48, 64]}},
            W + BIAS),
    }
    for name, data in cases.items():
        write("safetensors/" + name, data)


# ------------------------------------------- TorchScript files that aren't text

def make_binary_text():
    rng = random.Random(20240601)
    write("ts/binary-random.txt", bytes(rng.randrange(256) for _ in range(512)))
    write("ts/binary-nul-bytes.txt",
          b"graph(%x : Tensor):\n  %1 : Tensor = aten::relu(%x)\0\0\0\n  return (%1)\n")
    write("ts/binary-elf.txt", b"\x7fELF\x02\x01\x01" + b"\0" * 57)
    write("ts/non-utf8-type.txt",
          b"graph(%x : Ten\xa7or):\n  %1 : Tensor = aten::relu(%x)\n  return (%1)\n")
    write("ts/non-utf8-op-kind.txt",
          b"graph(%x : Tensor):\n  %1 : Tensor = aten::r\xe9lu(%x)\n  return (%1)\n")
    write("ts/non-utf8-utf16.txt",
          "graph(%x : Tensor):\n  return (%x)\n".encode("utf-16"))
    write("ts/non-utf8-latin1-string.txt",
          b"graph(%x : Tensor):\n  %1 : int = prim::Constant[value=\"caf\xe9\"]()\n"
          b"  return (%1)\n")


# ------------------------------------------------ deeply nested TorchScript

def make_deep_text():
    blocks = ["graph(%x : Tensor, %c : bool):"]
    blocks += ["%%v%d : Tensor = prim::If(%%c) block0():" % d for d in range(300)]
    write("ts/deep-nested-blocks.txt", ("\n".join(blocks) + "\n").encode())
    write("ts/deep-nested-types.txt",
          ("graph(%x : " + "(" * 5000 + "int" + ")" * 5000
           + "):\n  return (%x)\n").encode())
    write("ts/deep-nested-list-value.txt",
          ("graph(%x : Tensor):\n  %1 : int[] = prim::Constant[value="
           + "[" * 5000 + "]" * 5000 + "]()\n  return (%1)\n").encode())
    write("ts/deep-nested-optional.txt",
          ("graph(%x : Tensor" + "?" * 1000 + "):\n  return (%x)\n").encode())
    write("ts/deep-nested-list-type.txt",
          ("graph(%x : int" + "[]" * 1000 + "):\n  return (%x)\n").encode())


if __name__ == "__main__":
    make_npy()
    make_safetensors()
    make_binary_text()
    make_deep_text()
