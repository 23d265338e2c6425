#!/usr/bin/env python3
"""Writes every corpus case as the archives torch.jit.save makes of it, for
run_pt_archives.py (test/e2e/corpus-pt.test):

  OUT/CASE/scripted.pt  torch.jit.script(obj).save (a scripted function saves
                        as a module whose forward is the function)
  OUT/CASE/frozen.pt    modules: torch.jit.freeze(torch.jit.script(obj.eval()))
  OUT/CASE/traced.pt    torch.jit.trace(obj, the case's tensor inputs)
  OUT/CASE/traced.json  which of the case's arguments traced.pt takes (its
                        tensors, in order) and the values the trace bound
  OUT/manifest.json     CASE -> {"archives": [...], "skipped": {form: why}}

The object is rebuilt as the corpus built it (test/Corpus/README.md): the
function `meta["entry"]` of the case's source.py, or the module `build()`
returns with the parameters of params.safetensors, in eval mode. source.py
is imported as the module `source` from a copy in a scratch directory (the
corpus graphs name it `source.py`), so that the archives do not depend on
where the corpus lies.

Tracing takes tensors only: like the corpus's traced.txt, the scalar and
None arguments are bound by a function of the tensor arguments alone that
passes them on (meta's `trace_notes`: "non-tensor args ... were baked into
the trace as constants").

Every archive is loaded back with torch.jit.load and run on the case's
inputs; when PyTorch itself does not reproduce out*.npy (harness.py's
tolerances) the form is skipped, with the reason, instead of written.

Usage: make_pt_archives.py CORPUS OUT   (needs PyTorch; Debian python3-torch)
"""
import json
import linecache
import os
import shutil
import sys
import tempfile
import types
import warnings

# The Final constants of a scripted nn.Module (Conv2d's stride, padding...)
# are saved in the order of a Python set of their names, which string hash
# randomisation changes from run to run: fix the hash seed so that the same
# corpus gives the same archives, byte for byte.
if os.environ.get("PYTHONHASHSEED") != "0":
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable] + sys.argv)

import numpy as np  # noqa: E402
import torch  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402

# The safetensors reader the committed module forms were written with.
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "scripts"))
from dump_module_forms import read_safetensors  # noqa: E402


def load_source(case_dir, work):
    """The case's source.py, imported as the module `source` from a copy in
    `work` (made the current directory). Its code is compiled with the file
    name `source.py`, which the archives' debug info then holds, as the
    corpus graphs do, instead of the scratch directory's name."""
    os.chdir(work)
    shutil.copy(os.path.join(case_dir, "source.py"), "source.py")
    linecache.clearcache()  # each case's source has the same name
    source = types.ModuleType("source")
    source.__file__ = "source.py"
    sys.modules["source"] = source
    with open("source.py") as f:
        exec(compile(f.read(), "source.py", "exec"), source.__dict__)
    return source


def build(case_dir, meta, source):
    """The case's function, or its module with the corpus's parameters in
    eval mode."""
    if meta["kind"] != "module":
        return getattr(source, meta["entry"])
    torch.manual_seed(0)
    module = source.build()
    module.load_state_dict(
        read_safetensors(os.path.join(case_dir, "params.safetensors")))
    return module.eval()


def arguments(case_dir, meta):
    """(name, value, is_tensor) for every argument, in order."""
    args = []
    for spec in meta["inputs"]:
        if spec["kind"] == "tensor":
            array = np.load(os.path.join(case_dir, spec["file"]))
            args.append((spec["name"], torch.from_numpy(array), True))
        else:
            value = meta["scalar_args"].get(spec["name"], spec.get("value"))
            args.append((spec["name"], value, False))
    return args


def bind_scalars(fn, args):
    """`fn` when all its arguments are tensors, else a function of the
    tensor arguments (by their names, which the trace keeps) that passes
    the others on with their values."""
    if all(is_tensor for _, _, is_tensor in args):
        return fn
    tensors = [name for name, _, is_tensor in args if is_tensor]
    call = ", ".join(name if is_tensor else "_bound[%d]" % i
                     for i, (name, _, is_tensor) in enumerate(args))
    scope = {"__name__": "source", "_fn": fn,
             "_bound": [value for _, value, _ in args]}
    exec("def %s(%s):\n    return _fn(%s)\n" % (
        fn.__name__, ", ".join(tensors), call), scope)
    return scope[fn.__name__]


def flatten(outputs):
    if isinstance(outputs, (tuple, list)):
        return [o for x in outputs for o in flatten(x)]
    return [outputs]


def check(path, inputs, case_dir, meta):
    """None when torch.jit.load(path) run on `inputs` gives out*.npy, else
    why not."""
    inputs = [x.clone() if isinstance(x, torch.Tensor) else x
              for x in inputs]  # the next form runs on them too
    with torch.no_grad():
        outputs = flatten(torch.jit.load(path)(*inputs))
    if len(outputs) != meta["n_outputs"]:
        return "%d outputs, eager PyTorch gave %d" % (len(outputs),
                                                      meta["n_outputs"])
    for i, out in enumerate(outputs):
        ours = (out.detach().numpy() if isinstance(out, torch.Tensor)
                else np.asarray(out))
        why = harness.mismatch(
            ours, np.load(os.path.join(case_dir, "out%d.npy" % i)),
            "out%d" % i)
        if why:
            return why
    return None


def make_case(case_dir, out_dir, meta, source):
    """Writes the case's archives; returns (archives, skipped)."""
    obj = build(case_dir, meta, source)
    args = arguments(case_dir, meta)
    values = [value for _, value, _ in args]
    tensors = [value for _, value, is_tensor in args if is_tensor]
    os.makedirs(out_dir, exist_ok=True)
    archives, skipped = [], {}

    def save(form, make, inputs):
        path = os.path.join(out_dir, form + ".pt")
        make().save(path)
        why = check(path, inputs, case_dir, meta)
        if why:
            os.remove(path)
            skipped[form + ".pt"] = "torch.jit.load disagrees with " \
                "eager PyTorch: " + why
        else:
            archives.append(form + ".pt")

    save("scripted", lambda: torch.jit.script(obj), values)
    if meta["kind"] == "module":
        save("frozen", lambda: torch.jit.freeze(torch.jit.script(obj.eval())),
             values)
    traced = bind_scalars(obj, args) if meta["kind"] != "module" else obj
    save("traced", lambda: torch.jit.trace(traced, tuple(tensors)), tensors)
    if "traced.pt" in archives:
        with open(os.path.join(out_dir, "traced.json"), "w") as f:
            json.dump({
                "inputs": [name for name, _, t in args if t],
                "bound": {name: value for name, value, t in args if not t},
                "trace_notes": meta.get("trace_notes", []),
            }, f, indent=1, sort_keys=True)
            f.write("\n")
    return archives, skipped


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make_pt_archives.py CORPUS OUT")
    corpus, out = (os.path.abspath(p) for p in sys.argv[1:3])
    torch.set_num_threads(1)
    # Tracing the cases with control flow on tensors warns, as meta's
    # trace_warnings say; the check below runs each trace on the inputs.
    warnings.simplefilter("ignore", torch.jit.TracerWarning)
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="pt-archives-")
    cwd = os.getcwd()
    manifest = {}
    try:
        for case in sorted(os.listdir(corpus)):
            case_dir = os.path.join(corpus, case)
            meta_path = os.path.join(case_dir, "meta.json")
            if not os.path.exists(meta_path):
                continue
            meta = json.load(open(meta_path))
            os.makedirs(os.path.join(work, case))
            source = load_source(case_dir, os.path.join(work, case))
            archives, skipped = make_case(
                case_dir, os.path.join(out, case), meta, source)
            manifest[case] = {"archives": archives, "skipped": skipped}
            print("%s: %s" % (case, " ".join(archives)))
            for form, why in sorted(skipped.items()):
                print("  skipped %s: %s" % (form, why))
    finally:
        os.chdir(cwd)
        shutil.rmtree(work)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    print("pt archives: %d cases, %d archives, %d skipped" % (
        len(manifest), sum(len(m["archives"]) for m in manifest.values()),
        sum(len(m["skipped"]) for m in manifest.values())))


if __name__ == "__main__":
    main()
