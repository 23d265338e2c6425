#!/usr/bin/env python3
"""Checks numerically, in PyTorch, every rewrite the graph passes make on the
corpus (test/Corpus).

For each function case, the graphs PyTorch printed for it (graph.txt, or
inlined.txt where graph.txt calls functions whose bodies it does not hold;
traced.txt) are imported, rewritten by a pass pipeline, exported back to
TorchScript IR text with tsmlir-translate --export-torchscript, parsed by
PyTorch (torch._C.parse_ir) and run on the case's reference inputs. Each
output must have the dtype and shape of eager PyTorch's output (outN.npy) and
be close to it (rtol 1e-4, atol 1e-5, NaNs equal: the tolerance the corpus
uses for scripted against eager), and must be equal, bit for bit, to what the
graph PyTorch printed gives on the same inputs when run the same way.

The pipelines: --ts-optimize; --ts-specialize for the reference inputs then
--ts-optimize; ts-remove-mutation alone (with its dtype casts); ts-unroll-loops
then canonicalize and cse.

Module cases (their graphs take `self`, whose attributes a parsed graph cannot
be given) are listed as skipped.

Usage: optimize-numerics.py CORPUS TMPDIR
"""
import glob
import json
import os
import re
import subprocess
import sys

import numpy as np
import torch

corpus, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
torch.set_num_threads(1)

PIPELINES = [
    ("optimize", lambda inputs: ["--ts-optimize"]),
    ("specialise+optimize",
     lambda inputs: ["--ts-specialize=inputs=" + ",".join(inputs),
                     "--ts-optimize"]),
    ("remove-mutation",
     lambda inputs: ["--pass-pipeline=builtin.module(func.func("
                     "ts-remove-mutation))"]),
    ("unroll+canonicalize+cse",
     lambda inputs: ["--ts-unroll-loops", "--canonicalize", "--cse"]),
]


def tool(args):
    result = subprocess.run(args, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(" ".join(args[:2]) + ": " + result.stderr.strip())
    return result.stdout


DTYPE_ONLY = re.compile(r"\b(?:Float|Double|Half|BFloat16|Bool|Long|Int|Short|"
                        r"Char|Byte|ComplexFloat|ComplexDouble)Tensor\b")

RANK_ONLY = re.compile(r"(?<![\w:])Tensor\([^()]*\)")
FUNCTION_CONSTANT = re.compile(r"^ *%[\w.]+ : Function = prim::Constant\[name=[^\n]*\n",
                               re.M)

# PyTorch's parser gives single-element tensor constants (`{0.5}`) no value:
# build them with aten::scalar_tensor.
TENSOR_CONSTANT = re.compile(
    r"^( *)(%[\w.]+) : (\w+)(\([^()]*\))? = prim::Constant\[value=\{([^}]*)\}\]\(\)",
    re.M)
SCALAR_TYPES = {"Byte": 0, "Char": 1, "Short": 2, "Int": 3, "Long": 4,
                "Half": 5, "Float": 6, "Double": 7, "Bool": 11}


def scalar_tensor(match):
    indent, name, dtype, _, value = match.groups()
    number = "float" if dtype in ("Half", "Float", "Double") else "int"
    if dtype == "Bool":
        number, value = "bool", str(int(value not in ("0", "False")))
    elif number == "float" and not re.search(r"[.eEn]", value):
        value += "."
    tag = name[1:].replace(".", "_")
    return (f"{indent}%value_{tag} : {number} = prim::Constant[value={value}]()\n"
            f"{indent}%dtype_{tag} : int = prim::Constant[value={SCALAR_TYPES[dtype]}]()\n"
            f"{indent}%none_{tag} : NoneType = prim::Constant()\n"
            f"{indent}{name} : Tensor = aten::scalar_tensor(%value_{tag}, "
            f"%dtype_{tag}, %none_{tag}, %none_{tag}, %none_{tag})")

# Nodes without outputs print as ` = prim::Loop(...)`; the parser wants no `=`.
NO_OUTPUTS = re.compile(r"^( *) = ", re.M)


def parseable(text):
    """What PyTorch prints but its IR parser does not read back: non-finite
    float constants (`inf`, `-inf`, `nan`; built from strings instead) and
    tensor types with a dtype but no rank (`BoolTensor`) or with a rank but
    no dtype (`Tensor(32, *)`), both read as `Tensor`, the unused `Function`
    constants of inlined graphs, the values of single-element tensor
    constants, and the ` = ` before nodes with no outputs."""
    text = DTYPE_ONLY.sub("Tensor", text)
    text = RANK_ONLY.sub("Tensor", text)
    text = FUNCTION_CONSTANT.sub("", text)
    text = TENSOR_CONSTANT.sub(scalar_tensor, text)
    text = NO_OUTPUTS.sub(r"\1", text)
    count = 0

    def rewrite(match):
        nonlocal count
        count += 1
        name = f"%nonfinite{count}"
        return (f'{name} : str = prim::Constant[value="{match.group(2)}"]()\n'
                f"  {match.group(1)} : float = aten::Float({name})")

    return re.sub(r"(%[\w.]+) : float = prim::Constant\[value=(-?(?:inf|nan))\]\(\)",
                  rewrite, text)


def run_graph(text, args):
    graph = torch._C.parse_ir(parseable(text), parse_tensor_constants=False)
    function = torch._C._create_function_from_graph("forward", graph)
    # Each run gets fresh copies: in-place ops must not leak between runs.
    copies = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
    return flatten(function(*copies))


def flatten(value):
    if isinstance(value, (tuple, list)):
        return [x for v in value for x in flatten(v)]
    return [value]


def as_array(value):
    if isinstance(value, torch.Tensor):
        return value.detach().numpy()
    return np.asarray(value)


def compare(got, reference, exact):
    """Empty when `got` matches; otherwise why not."""
    if len(got) != len(reference):
        return f"{len(got)} outputs, expected {len(reference)}"
    for i, (g, r) in enumerate(zip(got, reference)):
        g, r = as_array(g), as_array(r)
        if g.dtype != r.dtype or g.shape != r.shape:
            return (f"output {i}: {g.dtype}{list(g.shape)}, expected "
                    f"{r.dtype}{list(r.shape)}")
        if exact:
            same = np.array_equal(g, r, equal_nan=g.dtype.kind in "fc")
        elif g.dtype.kind in "fc":
            same = np.allclose(g, r, rtol=1e-4, atol=1e-5, equal_nan=True)
        else:
            same = np.array_equal(g, r)
        if not same:
            diff = np.max(np.abs(g.astype(np.float64) - r.astype(np.float64)))
            return f"output {i}: max abs difference {diff:g}"
    return ""


runs = failures = skipped = 0
for case in sorted(os.listdir(corpus)):
    folder = os.path.join(corpus, case)
    meta_path = os.path.join(folder, "meta.json")
    if not os.path.exists(meta_path):
        continue
    with open(meta_path) as f:
        meta = json.load(f)
    if meta["kind"] != "function":
        print(f"skipped {case}: a module (its graphs take self)")
        skipped += 1
        continue
    args, tensor_args, input_files = [], [], []
    for spec in meta["inputs"]:
        if spec["kind"] == "tensor":
            path = os.path.join(folder, spec["file"])
            tensor = torch.from_numpy(np.load(path))
            args.append(tensor)
            tensor_args.append(tensor)
            input_files.append(path)
        else:
            args.append(None if spec["kind"] == "none" else spec["value"])
    expected = [np.load(p) for p in sorted(
        glob.glob(os.path.join(folder, "out*.npy")),
        key=lambda p: int(re.search(r"out(\d+)\.npy$", p).group(1)))]

    sources = ["graph.txt"]
    with open(os.path.join(folder, "graph.txt")) as f:
        if re.search(r"prim::Call(Method|Function)", f.read()):
            sources = ["inlined.txt"]
    if os.path.exists(os.path.join(folder, "traced.txt")):
        sources.append("traced.txt")
    for source in sources:
        # A traced graph binds non-tensor arguments as constants.
        source_args = tensor_args if source == "traced.txt" else args
        with open(os.path.join(folder, source)) as f:
            original_text = f.read()
        try:
            original = run_graph(original_text, source_args)
        except RuntimeError as error:
            # PyTorch's parser does not read back all it prints (nodes with
            # no outputs, such as a prim::Loop that carries nothing): the
            # rewritten graphs are then compared with eager PyTorch only.
            print(f"note {case}/{source}: PyTorch cannot parse the graph it "
                  f"printed ({' '.join(str(error).split())[:120]}); compared "
                  f"with eager outputs only")
            original = None
        mlir = os.path.join(work, f"{case}.{source}.mlir")
        tool(["tsmlir-translate", "--import-torchscript",
              os.path.join(folder, source), "-o", mlir])
        for name, options in PIPELINES:
            runs += 1
            label = f"{case}/{source} {name}"
            try:
                rewritten = tool(["tsmlir-opt", mlir] + options(input_files))
                exported = subprocess.run(
                    ["tsmlir-translate", "--export-torchscript"],
                    input=rewritten, capture_output=True, text=True)
                if exported.returncode != 0:
                    raise RuntimeError("export: " + exported.stderr.strip())
                got = run_graph(exported.stdout, source_args)
            except RuntimeError as error:
                print(f"FAIL {label}: {str(error).strip()}")
                failures += 1
                continue
            why = compare(got, expected, exact=False)
            if not why and original is not None:
                why = compare(got, original, exact=True)
            if why:
                print(f"MISMATCH {label}: {why}")
                failures += 1
            else:
                print(f"ok {label}")

print(f"numerics: {runs} runs, {runs - failures} match PyTorch, "
      f"{failures} failures, {skipped} skipped")
sys.exit(1 if failures else 0)
