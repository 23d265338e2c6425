#!/usr/bin/env python3
"""Writes what running a module case's frozen.txt and traced.txt needs besides
the graphs themselves:

  * OUT/frozen/CASE.safetensors: every tensor constant of
    torch.jit.freeze(module).graph, by its name without `self.`. Freezing
    computes new tensors (a batch norm folded into the convolution before it:
    `conv.weight_fused_bn`), which PyTorch prints as `<Tensor>` without their
    values; these are their values, from the module with the case's
    parameters (params.safetensors).
  * OUT/traced/CASE/<class>.forward.txt: the traced forward graph of every
    submodule traced.txt calls (prim::CallMethod), named as ts-inline
    resolves the call, by the class name traced.txt gives the submodule.

    /usr/bin/python3 scripts/dump_module_forms.py CASE_DIR OUT

Needs PyTorch (Debian: python3-torch); the output is committed.
"""

import importlib.util
import json
import os
import re
import shutil
import struct
import sys
import tempfile

import numpy as np
import torch

DTYPES = {"F32": np.float32, "F64": np.float64, "F16": np.float16,
          "I64": np.int64, "I32": np.int32, "U8": np.uint8, "BOOL": np.bool_}
NAMES = {np.dtype(v): k for k, v in DTYPES.items()}


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        array = np.frombuffer(data[8 + n + begin:8 + n + end],
                              dtype=DTYPES[info["dtype"]])
        tensors[name] = torch.from_numpy(array.reshape(info["shape"]).copy())
    return tensors


def write_safetensors(path, tensors):
    header, blobs, offset = {}, [], 0
    for name in sorted(tensors):
        array = np.ascontiguousarray(tensors[name].detach().numpy())
        blob = array.tobytes()
        header[name] = {"dtype": NAMES[array.dtype], "shape": list(array.shape),
                        "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def main():
    case_dir, out = (os.path.abspath(p) for p in sys.argv[1:3])
    case = os.path.basename(case_dir.rstrip("/"))
    work = tempfile.mkdtemp()
    shutil.copy(os.path.join(case_dir, "source.py"), work)
    os.chdir(work)
    spec = importlib.util.spec_from_file_location("source", "source.py")
    source = importlib.util.module_from_spec(spec)
    sys.modules["source"] = source
    spec.loader.exec_module(source)
    module = source.build()
    module.load_state_dict(
        read_safetensors(os.path.join(case_dir, "params.safetensors")))
    module.eval()

    frozen = torch.jit.freeze(torch.jit.script(module))
    constants = {}
    for node in frozen.graph.nodes():
        if node.kind() != "prim::Constant":
            continue
        value = node.output()
        name = value.debugName()
        if (value.type().kind() == "TensorType" and name.startswith("self.")):
            constants[name[len("self."):]] = node.t("value")
    os.makedirs(os.path.join(out, "frozen"), exist_ok=True)
    write_safetensors(os.path.join(out, "frozen", case + ".safetensors"),
                      constants)
    print("frozen: %d tensors" % len(constants))

    x = torch.from_numpy(np.load(os.path.join(case_dir, "in0.npy")))
    traced = torch.jit.trace(module, x)
    text = open(os.path.join(case_dir, "traced.txt")).read()
    calls = re.findall(r"%(\w+) : ([\w.]+) = prim::GetAttr\[name=\"(\w+)\"\]",
                       text)
    callee_dir = os.path.join(out, "traced", case)
    os.makedirs(callee_dir, exist_ok=True)
    for _, class_name, attr in calls:
        graph = str(getattr(traced, attr).graph).replace(work + "/", "")
        # Tracing gives each traced submodule a class of its own
        # (`___torch_mangle_4.Conv2d`); its `self` takes the class traced.txt
        # calls it on, so that the call resolves to it.
        graph = re.sub(r"^(graph\(%[\w.]+ : )[\w.]+", r"\g<1>" + class_name,
                       graph, count=1)
        with open(os.path.join(callee_dir, class_name + ".forward.txt"),
                  "w") as f:
            f.write(graph)
        print("traced: " + class_name + ".forward")


if __name__ == "__main__":
    main()
