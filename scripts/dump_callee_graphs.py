#!/usr/bin/env python3
"""Prints the graphs of every function and method a corpus case calls, for
tsmlir-translate's --import-function and ts-inline.

    /usr/bin/python3 scripts/dump_callee_graphs.py CASE_DIR OUT_DIR

CASE_DIR holds the case's source.py (a `build()` returning a module, or a
function named after the case). The script scripts the entry point as the
corpus generator did, then writes one file per function of the compilation
unit except the entry point, named after the symbol ts-inline resolves a
call to: `<class>.<method>.txt` for methods (`__torch__.torch.nn.modules.
linear.Linear.forward.txt`), `<name>.txt` for functions (`relu.txt`), since a
prim::CallFunction names its callee by its unqualified name. Source paths are
printed relative to the case (`source.py:5:11`), as in the corpus.

Needs PyTorch (Debian: python3-torch); the output is committed, so the tests
do not.
"""

import importlib.util
import os
import shutil
import sys
import tempfile

import torch


def main():
    case_dir, out_dir = (os.path.abspath(p) for p in sys.argv[1:3])
    case = os.path.basename(case_dir.rstrip("/"))
    work = tempfile.mkdtemp()
    shutil.copy(os.path.join(case_dir, "source.py"), work)
    os.chdir(work)  # so that graphs print `source.py:line:col`
    spec = importlib.util.spec_from_file_location("source", "source.py")
    source = importlib.util.module_from_spec(spec)
    sys.modules["source"] = source
    spec.loader.exec_module(source)
    if hasattr(source, "build"):
        entry = torch.jit.script(source.build())
        entry_name = entry._c._type().qualified_name() + ".forward"
    else:
        entry = torch.jit.script(getattr(source, case))
        entry_name = entry.qualified_name
    os.makedirs(out_dir, exist_ok=True)
    for function in torch.jit._state._python_cu.get_functions():
        name = function.qualified_name
        if name == entry_name:
            continue
        inputs = list(function.graph.inputs())
        self_type = inputs[0].type() if inputs else None
        is_method = (isinstance(self_type, torch._C.ClassType)
                     and name == self_type.qualified_name() + "."
                     + name.rsplit(".", 1)[1])
        symbol = name if is_method else name.rsplit(".", 1)[1]
        with open(os.path.join(out_dir, symbol + ".txt"), "w") as f:
            f.write(str(function.graph).replace(work + "/", ""))
        print(symbol)


if __name__ == "__main__":
    main()
