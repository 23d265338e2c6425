"""Writes hostile pickles and zip archives for the tests of the .pt readers.

    make_hostile.py OUT_DIR

Pickles (OUT_DIR/*.pkl) are raw bytes written by hand, so that each case is
exactly what it says; zips (OUT_DIR/*.pt) are written with zipfile or, where
zipfile cannot say the lie, by hand. Nothing here needs torch.
"""

import io
import os
import struct
import sys
import tarfile
import zipfile
import zlib

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


# ----------------------------------------------------------------- pickles
PROTO2 = b"\x80\x02"


def unicode(text):
    """BINUNICODE."""
    data = text.encode()
    return b"X" + struct.pack("<I", len(data)) + data


def glob(module, name):
    """GLOBAL."""
    return b"c" + module.encode() + b"\n" + name.encode() + b"\n"


def call(module, name, argument):
    """GLOBAL module name, a 1-tuple of a string, REDUCE, STOP."""
    return PROTO2 + glob(module, name) + unicode(argument) + b"\x85R."


MARKER = os.path.join(OUT, "pwned")
write("os-system.pkl", call("os", "system", "touch " + MARKER))
write("posix-system.pkl", call("posix", "system", "touch " + MARKER))
write("builtins-eval.pkl",
      call("builtins", "eval", "open(%r, 'w').close()" % MARKER))
write("subprocess-popen.pkl", call("subprocess", "Popen", "touch " + MARKER))
write("qtensor.pkl", call("torch._utils", "_rebuild_qtensor", "x"))
write("rebuild-parameter.pkl", call("torch._utils", "_rebuild_parameter", "x"))

# INT (text), which torch.jit.save never writes, and a byte that is no opcode.
write("unknown-opcode.pkl", PROTO2 + b"K\x01I1\n.")
write("unknown-opcode-ff.pkl", PROTO2 + b"\xff.")

# 100000 nested lists: EMPTY_LIST x 100000, then APPEND x 99999.
write("deep-lists.pkl", PROTO2 + b"]" * 100000 + b"a" * 99999 + b".")
# 100000 nested 1-tuples, and 100000 open MARKs.
write("deep-tuples.pkl", PROTO2 + b"N" + b"\x85" * 100000 + b".")
write("deep-marks.pkl", PROTO2 + b"(" * 100000 + b"N.")

write("binget-unset.pkl", PROTO2 + b"K\x01q\x00h\x05.")
write("missing-stop.pkl", PROTO2 + b"]K\x01a")
write("trailing-bytes.pkl", PROTO2 + b"N.\x00\x00")
# BINUNICODE of 256 MiB (under the 1 GiB limit) with 4 bytes following,
# of 0xfffffff0 bytes, and BINUNICODE8 of 2^62 bytes.
write("huge-binunicode.pkl", PROTO2 + b"X\x00\x00\x00\x10abc.")
write("huge-binunicode-4g.pkl", PROTO2 + b"X\xf0\xff\xff\xffabc.")
write("huge-binunicode8.pkl",
      PROTO2 + b"\x8d" + struct.pack("<Q", 1 << 62) + b"abc.")
write("protocol-5.pkl", b"\x80\x05K\x01.")
write("stack-underflow.pkl", PROTO2 + b"a.")
write("tuple-without-mark.pkl", PROTO2 + b"Nt.")
write("two-results.pkl", PROTO2 + b"NN.")
write("long1-9-bytes.pkl", PROTO2 + b"\x8a\x09" + b"\x01" * 9 + b".")
# A list that holds itself (EMPTY_LIST, BINPUT 0, BINGET 0, APPEND), and a
# list changed after it went into a tuple.
write("cycle.pkl", PROTO2 + b"]q\x00h\x00a.")
write("change-after-use.pkl", PROTO2 + b"]q\x00\x85h\x00K\x01a.")
write("global-in-list.pkl", PROTO2 + b"]" + glob("__torch__", "Foo") + b"a.")
write("reduce-class.pkl", PROTO2 + glob("__torch__", "Foo") + b")R.")
# One memoized dict with a 1 MB attribute name, as the state of 5000
# objects: each object copies the name (5 GB from 1 MB of input).
objects = (PROTO2 + b"]}q\x00" + unicode("a" * 1000000) + b"Nsa" +
           glob("__torch__", "Foo") + b"q\x01)\x81h\x00ba" +
           b"h\x01)\x81h\x00ba" * 4999 + b".")
write("copied-attributes.pkl", objects)
write("duplicate-key.pkl",
      PROTO2 + b"}(" + unicode("a") + b"K\x01" + unicode("a") + b"K\x02u.")


def tensor(offset, sizes, strides, numel, dtype="Float"):
    """_rebuild_tensor_v2 of storage '0' (numel elements of dtype)."""
    def ints(values):
        return b"(" + b"".join(b"K" + bytes([v]) for v in values) + b"t"
    storage = (b"(" + unicode("storage") + glob("torch", dtype + "Storage") +
               unicode("0") + unicode("cpu") + b"K" + bytes([numel]) + b"tQ")
    hooks = glob("collections", "OrderedDict") + b")R"
    return (PROTO2 + glob("torch._utils", "_rebuild_tensor_v2") + b"(" +
            storage + b"K" + bytes([offset]) + ints(sizes) + ints(strides) +
            b"\x89" + hooks + b"tR.")


write("tensor-ok.pkl", tensor(0, [4, 3], [3, 1], 12))
write("tensor-offset-past-numel.pkl", tensor(20, [4, 3], [3, 1], 12))
write("tensor-extent-past-numel.pkl", tensor(1, [4, 3], [3, 1], 12))
write("tensor-rank-mismatch.pkl", tensor(0, [4, 3], [1], 12))
write("tensor-quantized-storage.pkl", tensor(0, [4], [1], 4, "QInt8"))

# ------------------------------------------------------------------- zips
DOS_TIME, DOS_DATE = 0, (1 << 5) | 1  # 1980-01-01


def zip_by_hand(name, data, method, crc, size, flags=0):
    """A zip of one member whose headers declare `size` (uncompressed) and
    `crc`, with `data` as its (compressed) bytes; zip64 sizes when `size`
    needs them."""
    name = name.encode()
    zip64 = size >= 0xFFFFFFFF
    if zip64:
        extra = struct.pack("<HHQQ", 1, 16, size, len(data))
        sizes = (0xFFFFFFFF, 0xFFFFFFFF)
    else:
        extra = b""
        sizes = (len(data), size)
    version = 45 if zip64 else 20
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, version, flags, method,
                        DOS_TIME, DOS_DATE, crc, sizes[0], sizes[1],
                        len(name), len(extra)) + name + extra
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, version, version,
                          flags, method, DOS_TIME, DOS_DATE, crc, sizes[0],
                          sizes[1], len(name), len(extra), 0, 0, 0, 0,
                          0) + name + extra
    body = local + data
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central),
                      len(body), 0)
    return body + central + end


def deflate(data):
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush()


# 100 MB of zeros that declare 1000 bytes (and the CRC of 1000 zeros).
zeros = deflate(bytes(100 << 20))
write("bomb-small-declared.pt",
      zip_by_hand("bomb/zeros", zeros, 8, zlib.crc32(bytes(1000)), 1000))
# A member that declares 10 GB.
write("bomb-10g.pt",
      zip_by_hand("bomb/zeros", deflate(bytes(1 << 20)), 8, 0, 10 << 30))
# Stored data with a wrong CRC; data shorter than declared (deflated, so
# that the sizes may differ); an encrypted member (flag bit 0).
payload = b"0123456789" * 10
write("bad-crc.pt", zip_by_hand("m/data", payload, 0,
                                zlib.crc32(payload) ^ 1, len(payload)))
write("short-data.pt", zip_by_hand("m/data", deflate(payload), 8,
                                   zlib.crc32(payload), len(payload) + 50))
write("encrypted.pt", zip_by_hand("m/data", payload, 0, zlib.crc32(payload),
                                  len(payload), flags=1))
# bzip2 (method 12).
write("bzip2.pt", zip_by_hand("m/data", payload, 12, zlib.crc32(payload),
                              len(payload)))


def zip_of(members):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        for name, data in members:
            z.writestr(name, data)
    return buffer.getvalue()


good = zip_of([("m/data.pkl", PROTO2 + b"N."), ("m/data/0", bytes(48)),
               ("m/version", b"3\n")])
write("good.pt", good)
write("truncated.pt", good[: len(good) // 2])
write("not-a-zip.pt", b"This is not a zip archive.\n" * 4)
write("empty.pt", b"")
import warnings
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # zipfile warns of the duplicate
    write("duplicate.pt", zip_of([("m/a", b"1"), ("m/a", b"2")]))
write("dotdot.pt", zip_of([("m/../../etc/passwd", b"x")]))
tar = io.BytesIO()
with tarfile.open(fileobj=tar, mode="w") as t:
    info = tarfile.TarInfo("storages")
    info.size = 4
    t.addfile(info, io.BytesIO(b"abcd"))
write("legacy.tar", tar.getvalue())
