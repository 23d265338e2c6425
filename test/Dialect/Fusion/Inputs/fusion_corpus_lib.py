"""What the fusion tests on the corpus share: how a case is imported and
specialised, and how the aten ops of a tsmlir-opt output are counted by
kind, inside and outside fusion.group ops.

A case runs the way the profiling executor sees it:

  tsmlir-translate --import-torchscript SOURCE [--params params.safetensors]
  tsmlir-opt [--ts-freeze] --ts-insert-guards=inputs=in0.npy,... --ts-optimize
             --ts-create-fusion-groups=strategy=S

SOURCE is graph.txt, or inlined.txt where graph.txt calls functions or
methods (prim::CallFunction, prim::CallMethod) whose bodies its text does
not hold. Modules (meta.json kind "module") take their parameters from
params.safetensors and are frozen first, so that `self` goes away.
"""
import collections
import glob
import json
import os
import re
import subprocess


def case_inputs(folder):
    """The case's tensor inputs inN.npy, in argument order."""
    return sorted(glob.glob(os.path.join(folder, "in*.npy")),
                  key=lambda p: int(re.search(r"in(\d+)\.npy$", p).group(1)))


def case_source(folder):
    """graph.txt, or inlined.txt where graph.txt calls what it does not hold."""
    with open(os.path.join(folder, "graph.txt")) as f:
        if re.search(r"prim::Call(Method|Function)", f.read()):
            if os.path.exists(os.path.join(folder, "inlined.txt")):
                return "inlined.txt"
    return "graph.txt"


def is_module(folder):
    with open(os.path.join(folder, "meta.json")) as f:
        return json.load(f).get("kind") == "module"


def run(args):
    return subprocess.run(args, capture_output=True, text=True)


def first_line(text):
    lines = text.strip().splitlines()
    return lines[0] if lines else ""


def import_case(folder, work, source=None):
    """Imports the case's source graph; (path of the MLIR, error or None)."""
    source = source or case_source(folder)
    case = os.path.basename(folder.rstrip("/"))
    out = os.path.join(work, f"{case}.{source}.mlir")
    args = ["tsmlir-translate", "--import-torchscript",
            os.path.join(folder, source), "-o", out]
    params = os.path.join(folder, "params.safetensors")
    if is_module(folder) and os.path.exists(params):
        args.append("--params=" + params)
    done = run(args)
    if done.returncode:
        return out, first_line(done.stderr)
    return out, None


DTYPES = {"float32": "f32", "float64": "f64", "float16": "f16",
          "bfloat16": "bf16", "int64": "i64", "int32": "i32", "int16": "i16",
          "int8": "i8", "uint8": "u8", "bool": "bool"}


def graph_arg_types(path):
    """The argument types of the graph in `path`, as PyTorch prints them."""
    with open(path) as f:
        text = f.read()
    header = text[len("graph("):text.index("):\n")]
    return [part.split(" : ", 1)[1].strip() for part in header.split(",\n")]


def guard_spec(folder, source):
    """The --ts-insert-guards option for the case's reference inputs.

    inputs=in0.npy,... gives them to the tensor arguments in order. A guard
    checks tensors only, so where one of those arguments is an optional
    tensor (`Tensor?`), the others are named one by one (argN=f32[...]) and
    the optional one stays unspecialised.
    """
    inputs = case_inputs(folder)
    with open(os.path.join(folder, "meta.json")) as f:
        meta = json.load(f)
    types = graph_arg_types(os.path.join(folder, source))
    offset = 1 if meta.get("kind") == "module" else 0
    specs, optional = [], False
    for index, arg in enumerate(meta.get("inputs", [])):
        if arg.get("kind") != "tensor":
            continue
        if types[index + offset] != "Tensor":
            optional = True
            continue
        sizes = ",".join(str(d) for d in arg["shape"])
        specs.append(f"arg{index + offset}={DTYPES[arg['dtype']]}[{sizes}]")
    if optional:
        return "--ts-insert-guards=" + ",".join(specs) if specs else None
    return "--ts-insert-guards=inputs=" + ",".join(inputs) if inputs else None


def specialised_pipeline(folder, strategy=None, source=None):
    """The tsmlir-opt arguments that specialise, optimise and fuse a case."""
    args = []
    if is_module(folder):
        args.append("--ts-freeze")
    guard = guard_spec(folder, source or case_source(folder))
    if guard:
        args.append(guard)
    args.append("--ts-optimize")
    if strategy:
        args.append(f"--ts-create-fusion-groups=strategy={strategy}")
    return args


def aten_kind(op_name):
    """ts.aten.add.Tensor -> aten::add."""
    return "aten::" + op_name.split(".")[2]


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_OP = re.compile(r'^\s*(?:%[^=]+=\s*)?([a-z_]+\.[\w.]+)')


def count_ops(mlir, strategy=None):
    """Counts aten ops by kind in the output of tsmlir-opt.

    Returns (present, fused, groups): `present` counts the aten ops that are
    not in the fallback region of a fusion.guarded (the code the
    specialised run executes), `fused` those inside a fusion.group of
    `strategy` (any strategy when None), `groups` how many such groups there
    are. Nested regions are followed through the braces that open and close
    them; `} fallback {` switches a fusion.guarded to its fallback region.
    """
    present, fused = collections.Counter(), collections.Counter()
    groups = 0
    # One entry per open region: (is a fusion.group, is a fallback region).
    stack = []
    for line in mlir.splitlines():
        bare = _STRING.sub('""', line)
        stripped = bare.strip()
        if stripped.startswith("} fallback {"):
            if stack:
                stack[-1] = (stack[-1][0], True)
            continue
        match = _OP.match(line)
        name = match.group(1) if match else ""
        in_fallback = any(fallback for _, fallback in stack)
        in_group = any(group for group, _ in stack)
        if name.startswith("ts.aten.") and not in_fallback:
            present[aten_kind(name)] += 1
            if in_group:
                fused[aten_kind(name)] += 1
        opens = bare.count("{") - bare.count("}")
        while opens < 0 and stack:
            stack.pop()
            opens += 1
        if opens > 0:
            is_group = name == "fusion.group" and (
                strategy is None or line.split("fusion.group", 1)[1]
                .split()[0] == strategy)
            if is_group and not in_fallback:
                groups += 1
            stack.append((is_group, False))
            for _ in range(opens - 1):
                stack.append((False, False))
    return present, fused, groups
