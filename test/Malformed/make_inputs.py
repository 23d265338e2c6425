#!/usr/bin/env python3
"""Writes the generated inputs of the malformed-input suite: the .npy and
.safetensors files under npy/ and safetensors/, the TorchScript files that
are not text (ts/binary-*.txt, ts/non-utf8-*.txt) or too deeply nested to
write by hand (ts/deep-nested-*.txt), the valid inputs they are
variations of (Inputs/x.npy, Inputs/params.safetensors), and the broken
and hostile .pt archives under pt/, each a variation of one of the valid
archives torch wrote (Inputs/relu_fn.pt, Inputs/linear_frozen.pt,
Inputs/legacy.pt: Inputs/make_pt_inputs.py, run by hand with torch).

The files are committed; run this again (plain python3, no numpy, no torch)
only to change them:

    python3 test/Malformed/make_inputs.py
"""
import json
import os
import random
import shutil
import struct
import zipfile
import zlib

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


# ------------------------------------------------------------- .pt archives
#
# Every archive under pt/ is one of the committed valid archives changed in
# one way. The zip files are written here, byte by byte, rather than with
# zipfile's writer: the sizes, CRCs and methods they declare are then
# whatever a case needs, and the bytes depend on nothing but zlib.

def deflate(data):
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush()


def deflate_zeros(prefix, count, chunk=1 << 20):
    """`prefix`, then `count` zero bytes, deflated, without holding them
    all."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    zeros = bytes(chunk)
    parts = [compressor.compress(prefix)]
    for done in range(0, count, chunk):
        parts.append(compressor.compress(zeros[:min(chunk, count - done)]))
    parts.append(compressor.flush())
    return b"".join(parts)


class Member:
    """A zip member: its data, and what the headers declare about them."""

    def __init__(self, name, data, deflated=False, payload=None, size=None,
                 crc=None, method=None, flags=0):
        self.name = name
        self.data = data
        self.payload = payload if payload is not None else (
            deflate(data) if deflated else data)
        self.size = size if size is not None else len(data)
        self.crc = crc if crc is not None else zlib.crc32(data)
        self.method = method if method is not None else (8 if deflated else 0)
        self.flags = flags


def zip_archive(members):
    """A zip archive of `members`, dated 1980-01-01 as torch.jit.save does;
    zip64 extra fields for a size of 4 GiB or more."""
    out, central = bytearray(), bytearray()
    dos_time, dos_date = 0, (1 << 5) | 1
    for m in members:
        name = m.name.encode("utf-8")
        offset = len(out)
        csize, usize = len(m.payload), m.size
        if usize >= 0xffffffff or csize >= 0xffffffff:
            version, sizes = 45, (0xffffffff, 0xffffffff)
            extra = struct.pack("<HHQQ", 1, 16, usize, csize)
        else:
            version, sizes, extra = 20, (csize, usize), b""
        out += struct.pack("<IHHHHHIIIHH", 0x04034b50, version, m.flags,
                           m.method, dos_time, dos_date, m.crc, sizes[0],
                           sizes[1], len(name), len(extra))
        out += name + extra + m.payload
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014b50, version,
                               version, m.flags, m.method, dos_time, dos_date,
                               m.crc, sizes[0], sizes[1], len(name),
                               len(extra), 0, 0, 0, 0, offset)
        central += name + extra
    start = len(out)
    out += central
    out += struct.pack("<IHHHHIIH", 0x06054b50, 0, 0, len(members),
                       len(members), len(central), start, 0)
    return bytes(out)


def read_archive(relpath):
    """The members of a committed archive, in their order."""
    with zipfile.ZipFile(os.path.join(HERE, relpath)) as z:
        return [Member(info.filename, z.read(info.filename),
                       deflated=info.compress_type == zipfile.ZIP_DEFLATED)
                for info in z.infolist()]


def variant(base, change=None, drop=(), add=()):
    """`base`'s members with `change` ({name: bytes or Member}) applied,
    the members `drop` left out and `add` appended."""
    members = []
    for m in base:
        if m.name in drop:
            continue
        new = (change or {}).get(m.name)
        if isinstance(new, Member):
            m = new
        elif new is not None:
            m = Member(m.name, new, deflated=m.method == 8)
        members.append(m)
    return zip_archive(members + list(add))


def replace_once(text, old, new):
    """`text` with `old`, which must be in it, replaced by `new`: a torch that
    writes other code makes this fail rather than the case silently change."""
    assert old in text, "%r is not in:\n%s" % (old, text)
    return text.replace(old, new, 1)


# Pickle opcodes (protocol 2, and STACK_GLOBAL and INST for the hostile
# pickles), written by hand: pickle.dumps cannot write a call of os.system
# without a function to pickle, nor 100000 nested lists.
PROTO2 = b"\x80\x02"
MARK, STOP, TUPLE, TUPLE1 = b"(", b".", b"t", b"\x85"
EMPTY_TUPLE, EMPTY_LIST, EMPTY_DICT = b")", b"]", b"}"
APPEND, SETITEMS, REDUCE, BUILD = b"a", b"u", b"R", b"b"
NEWOBJ, BINPERSID, NEWTRUE, NEWFALSE = b"\x81", b"Q", b"\x88", b"\x89"
STACK_GLOBAL, INST = b"\x93", b"i"


def p_global(module, name):
    return b"c" + module.encode() + b"\n" + name.encode() + b"\n"


def p_str(text):
    data = text.encode("utf-8")
    return b"X" + struct.pack("<I", len(data)) + data


def p_int(value):
    if 0 <= value < 256:
        return b"K" + bytes([value])
    return b"J" + struct.pack("<i", value)


def p_ints(values):
    return MARK + b"".join(p_int(v) for v in values) + TUPLE


def p_tensor(key, numel, offset, sizes, strides):
    """A float tensor as torch.jit.save pickles it (_rebuild_tensor_v2 of a
    persistent id of the storage `key` of `numel` elements)."""
    return (p_global("torch._utils", "_rebuild_tensor_v2") + MARK
            + MARK + p_str("storage") + p_global("torch", "FloatStorage")
            + p_str(key) + p_str("cpu") + p_int(numel) + TUPLE + BINPERSID
            + p_int(offset) + p_ints(sizes) + p_ints(strides) + NEWFALSE
            + p_global("collections", "OrderedDict") + EMPTY_TUPLE + REDUCE
            + TUPLE + REDUCE)


def p_module(module, name, state=b""):
    """An object of the TorchScript class `module`.`name` with the
    attributes `state` (keys and values) as data.pkl holds it."""
    return (PROTO2 + p_global(module, name) + EMPTY_TUPLE + NEWOBJ
            + EMPTY_DICT + MARK + state + SETITEMS + BUILD + STOP)


def make_pt():
    relu = read_archive("Inputs/relu_fn.pt")
    linear = read_archive("Inputs/linear_frozen.pt")
    R, L = "relu_fn/", "linear_frozen/"
    relu_members = {m.name: m for m in relu}
    linear_members = {m.name: m for m in linear}
    relu_pkl = relu_members[R + "data.pkl"].data
    code = relu_members[R + "code/__torch__.py"].data.decode()
    linear_code_name = L + "code/__torch__/___torch_mangle_0.py"
    linear_code = linear_members[linear_code_name].data.decode()
    constants_pkl = linear_members[L + "constants.pkl"].data
    relu_bytes = zip_archive(relu)

    def relu_code(old, new):
        return variant(relu, {R + "code/__torch__.py":
                              replace_once(code, old, new).encode()})

    def relu_data(pkl):
        return variant(relu, {R + "data.pkl": pkl})

    ret = "    return torch.add(torch.relu(x), 1)\n"
    forward = ("  def forward(self: __torch__.PlaceholderModule,\n"
               "    x: Tensor) -> Tensor:\n" + ret)
    cases = {
        # Framing.
        "empty.pt": b"",
        "not-a-zip.pt": b"def f(x):\n    return torch.relu(x) + 1\n",
        "zip-truncated-half.pt": relu_bytes[:len(relu_bytes) // 2],
        "zip-no-central-directory.pt": relu_bytes[:relu_bytes.rfind(
            b"PK\x01\x02", 0, relu_bytes.rfind(b"PK\x05\x06"))],
        # The raw pickle torch.save wrote before PyTorch 1.6.
        "legacy-torch-save.pt": open(os.path.join(HERE, "Inputs/legacy.pt"),
                                     "rb").read(),
        # Members.
        "no-data-pkl.pt": variant(relu, drop=[R + "data.pkl"]),
        "no-version.pt": variant(relu, drop=[R + "version"]),
        "version-abc.pt": variant(relu, {R + "version": b"abc\n"}),
        "version-99.pt": variant(relu, {R + "version": b"99\n"}),
        "member-dotdot.pt": variant(relu, add=[
            Member(R + "../../evil.sh", b"touch pwned\n")]),
        "member-twice.pt": variant(relu, add=[
            Member(R + "data.pkl", relu_pkl)]),
        "member-crc-mismatch.pt": variant(relu, {R + "data.pkl": Member(
            R + "data.pkl", relu_pkl, crc=zlib.crc32(relu_pkl) ^ 1)}),
        "member-bzip2.pt": variant(relu, {R + "data.pkl": Member(
            R + "data.pkl", relu_pkl, method=12)}),
        "member-encrypted.pt": variant(relu, {R + "data.pkl": Member(
            R + "data.pkl", relu_pkl, flags=1)}),
        # Zip bombs: data.pkl deflated, declaring its 58 bytes but inflating
        # to 200 MB of zeros after them; members declaring 8 GiB and 6 GiB
        # (zip64) that hold a few bytes.
        "zip-bomb-200mb.pt": variant(relu, {R + "data.pkl": Member(
            R + "data.pkl", relu_pkl, method=8, crc=zlib.crc32(relu_pkl),
            payload=deflate_zeros(relu_pkl, 200 * 10**6))}),
        "zip-declares-8gib-data-pkl.pt": variant(relu, {R + "data.pkl": Member(
            R + "data.pkl", relu_pkl, deflated=True, size=8 << 30)}),
        "zip-declares-6gib-storage.pt": variant(linear, {L + "constants/0":
            Member(L + "constants/0", bytes(48), deflated=True,
                   size=6 << 30)}),
        "zip-declares-6gib-code.pt": variant(relu, {R + "code/__torch__.py":
            Member(R + "code/__torch__.py", code.encode(), deflated=True,
                   size=6 << 30)}),
        # Hostile pickles: calls that would run a command.
        "pickle-os-system.pt": relu_data(
            PROTO2 + p_global("os", "system") + p_str("touch pwned")
            + TUPLE1 + REDUCE + STOP),
        "pickle-posix-system.pt": relu_data(
            PROTO2 + p_global("posix", "system") + p_str("touch pwned")
            + TUPLE1 + REDUCE + STOP),
        "pickle-builtins-eval.pt": relu_data(
            PROTO2 + p_global("builtins", "eval")
            + p_str("__import__('os').system('touch pwned')")
            + TUPLE1 + REDUCE + STOP),
        "pickle-subprocess-popen.pt": relu_data(
            PROTO2 + p_global("subprocess", "Popen")
            + MARK + p_str("touch") + p_str("pwned") + TUPLE
            + TUPLE1 + REDUCE + STOP),
        "pickle-stack-global-os-system.pt": relu_data(
            b"\x80\x04" + p_str("os") + p_str("system") + STACK_GLOBAL
            + p_str("touch pwned") + TUPLE1 + REDUCE + STOP),
        "pickle-inst-os-system.pt": relu_data(
            PROTO2 + MARK + p_str("touch pwned") + INST + b"os\nsystem\n"
            + STOP),
        "pickle-os-system-in-state.pt": relu_data(p_module(
            "__torch__", "PlaceholderModule",
            p_str("training") + p_global("os", "system")
            + p_str("touch pwned") + TUPLE1 + REDUCE)),
        "constants-os-system.pt": variant(linear, {L + "constants.pkl":
            PROTO2 + p_global("os", "system") + p_str("touch pwned")
            + TUPLE1 + REDUCE + STOP}),
        # Broken pickles.
        "pickle-unknown-opcode.pt": relu_data(
            relu_pkl[:33] + b"\xf0" + relu_pkl[33:]),
        "pickle-truncated.pt": relu_data(relu_pkl[:len(relu_pkl) // 2]),
        "pickle-no-stop.pt": relu_data(relu_pkl[:-1]),
        # (Deflated, unlike the data.pkl torch writes: 200 KB otherwise.)
        "pickle-deep-lists.pt": variant(relu, {R + "data.pkl": Member(
            R + "data.pkl", p_module(
                "__torch__", "PlaceholderModule",
                p_str("training") + NEWTRUE + p_str("deep")
                + EMPTY_LIST * 100000 + APPEND * 99999), deflated=True)}),
        # Tensors and their storages (the frozen module's weight: storage
        # '0' of 12 floats, sizes (4, 3); its bias: storage '1', 4 floats).
        "data-tensor-offset-past-storage.pt": variant(
            linear, {L + "data.pkl": p_module(
                "__torch__.___torch_mangle_0", "Linear",
                p_str("w") + p_tensor("0", 12, 100, (4, 3), (3, 1)))},
            add=[Member(L + "data/0", bytes(48))]),
        "constants-tensor-extent-past-storage.pt": variant(
            linear, {L + "constants.pkl": replace_once(
                constants_pkl, p_ints((4, 3)), p_ints((5, 3)))}),
        "storage-missing.pt": variant(linear, drop=[L + "constants/1"]),
        "storage-short.pt": variant(linear, {
            L + "constants/0": linear_members[L + "constants/0"].data[:20]}),
        "storage-key-not-a-name.pt": variant(linear, {
            L + "constants.pkl": replace_once(
                constants_pkl, p_str("1"), p_str("../1"))}),
        # Code.
        "code-missing.pt": variant(linear, drop=[linear_code_name]),
        "code-bad-indent.pt": relu_code(
            ret, "    y = torch.relu(x)\n   return torch.add(y, 1)\n"),
        "code-unterminated-string.pt": relu_code(
            "torch.add(torch.relu(x), 1)", "torch.add(torch.relu(x), \"1)"),
        "code-def-cut-mid-line.pt": variant(relu, {
            R + "code/__torch__.py": code[:code.index("def forward(")
                                          + len("def forward(self: __to")
                                          ].encode()}),
        "code-unknown-op.pt": relu_code("torch.relu(x)", "torch.not_an_op(x)"),
        "code-undefined-name.pt": relu_code("torch.relu(x)", "torch.relu(y)"),
        "code-relu-three-args.pt": relu_code("torch.relu(x)",
                                             "torch.relu(x, 1, 2)"),
        "code-add-string.pt": relu_code("torch.add(torch.relu(x), 1)",
                                        "torch.add(torch.relu(x), \"one\")"),
        "code-deep-parens.pt": relu_code(
            "torch.relu(x)", "torch.relu(" + "(" * 10000 + "x"
            + ")" * 10000 + ")"),
        "code-recursive-methods.pt": relu_code(forward, forward.replace(
            ret, "    return (self).f(x, )\n")
            + "  def f(self: __torch__.PlaceholderModule,\n"
            "    x: Tensor) -> Tensor:\n    return (self).g(x, )\n"
            "  def g(self: __torch__.PlaceholderModule,\n"
            "    x: Tensor) -> Tensor:\n    return (self).f(x, )\n"),
        "code-recursive-functions.pt": variant(relu, {R + "code/__torch__.py": (
            replace_once(code, ret, "    return __torch__.f(x, )\n")
            + "def f(x: Tensor) -> Tensor:\n  return __torch__.g(x, )\n"
            "def g(x: Tensor) -> Tensor:\n  return __torch__.f(x, )\n"
            ).encode()}),
        "code-constant-past-end.pt": variant(linear, {
            linear_code_name: replace_once(
                linear_code, "CONSTANTS.c1", "CONSTANTS.c9").encode()}),
    }
    for name, data in cases.items():
        write("pt/" + name, data)


if __name__ == "__main__":
    make_npy()
    make_safetensors()
    make_binary_text()
    make_deep_text()
    make_pt()
