#!/usr/bin/env python3
"""Our nnc fusion groups against PyTorch's NNC fusion on the corpus.

  nnc-vs-pytorch.py CORPUS_DIR WORK_DIR

For every case whose optimized.txt (PyTorch 1.13's profiling executor with
NNC, the TensorExpr fuser) holds a prim::TensorExprGroup:

* PyTorch's fused ops are the aten nodes of the `with
  prim::TensorExprGroup_N = graph(...)` subgraph blocks printed after the
  main graph, counted by kind (aten::add for aten::add.Tensor and
  aten::add.Scalar alike). prim nodes (prim::Constant, prim::ListConstruct,
  ...) are not counted: they are not computations, and our groups copy
  constants in rather than fuse them. Fallback graphs (`with
  prim::FallbackGraph_N`) and the aten nodes of the main graph are not
  fused and not counted.
* Ours are the aten ops inside the fusion.group nnc ops that
  --ts-create-fusion-groups=strategy=nnc forms on the same case,
  specialised for its reference inputs first (see fusion_corpus_lib.py),
  counted by kind the same way (ts.aten.add.Tensor is aten::add).

Our optimiser may remove or rewrite some of the ops PyTorch fused (folded,
simplified away, shared by CSE). The comparison is fair about it: for each
kind, what our groups must hold is PyTorch's count, capped by the ops of
that kind left in our optimised graph (its specialised code, not the
fallback). Every kind so capped is reported on a `REMOVED` line, not hidden.
(The other way round happens too: PyTorch unrolls loops of unknown trip
count by 8, so loop_accumulate's body is fused 9 times over there and once
here, where the loop stays a loop.)

Prints, per case, one line with PyTorch's fused count, ours, and the kinds
(and counts) we fuse beyond PyTorch's; a `MISSING` line for every kind where
our groups hold fewer than the (capped) PyTorch count; a `FAIL` line when a
tool fails; and a summary. Exits non-zero on a FAIL or MISSING.
"""
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fusion_corpus_lib as lib  # noqa: E402


def pytorch_fused(text):
    """aten kinds and counts in the TensorExprGroup subgraphs, and how many
    such groups there are."""
    fused = collections.Counter()
    groups, inside = 0, False
    for line in text.splitlines():
        if line.startswith("with "):
            inside = re.match(r"with prim::TensorExprGroup_\d+ = graph", line) \
                is not None
            groups += inside
            continue
        if inside:
            match = re.search(r"= (aten::\w+)\(", line)
            if match:
                fused[match.group(1)] += 1
    return fused, groups


def fmt(counter):
    return ", ".join(f"{kind.split('::')[1]} x{n}" if n > 1 else
                     kind.split("::")[1]
                     for kind, n in sorted(counter.items())) or "-"


def main():
    corpus, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    cases = failures = missing_cases = removed_cases = more_cases = 0
    total_theirs = total_expected = total_ours = 0
    rows = []
    for case in sorted(os.listdir(corpus)):
        folder = os.path.join(corpus, case)
        optimized = os.path.join(folder, "optimized.txt")
        if not os.path.exists(optimized):
            continue
        with open(optimized) as f:
            theirs, their_groups = pytorch_fused(f.read())
        if not their_groups:
            continue
        cases += 1
        mlir, err = lib.import_case(folder, work)
        if err is None:
            done = lib.run(["tsmlir-opt", mlir] +
                           lib.specialised_pipeline(folder, "nnc"))
            if done.returncode:
                err = lib.first_line(done.stderr)
        if err is not None:
            print(f"FAIL: {case}: {err}")
            failures += 1
            continue
        present, ours, our_groups = lib.count_ops(done.stdout, "nnc")
        expected = collections.Counter(
            {kind: min(n, present[kind]) for kind, n in theirs.items()})
        removed = {kind: (n, present[kind]) for kind, n in theirs.items()
                   if present[kind] < n}
        missing = {kind: (n, ours[kind]) for kind, n in expected.items()
                   if ours[kind] < n}
        extra = collections.Counter(
            {kind: ours[kind] - theirs[kind] for kind in ours
             if ours[kind] > theirs[kind]})
        t, e, o = (sum(c.values()) for c in (theirs, expected, ours))
        total_theirs += t
        total_expected += e
        total_ours += o
        more_cases += o > e
        rows.append((case, their_groups, t, e, our_groups, o, extra))
        for kind, (n, left) in sorted(removed.items()):
            print(f"REMOVED: {case}: {kind}: PyTorch fuses {n}, our optimised "
                  f"graph holds {left}")
        removed_cases += bool(removed)
        for kind, (n, got) in sorted(missing.items()):
            print(f"MISSING: {case}: {kind}: PyTorch fuses {n}, our nnc "
                  f"groups hold {got}")
        missing_cases += bool(missing)

    print()
    header = (f"{'case':<20} {'PyTorch groups':>14} {'fused':>6} {'kept':>5} "
              f"{'our groups':>10} {'fused':>6}  extra kinds (beyond PyTorch)")
    print(header)
    print("-" * len(header))
    for case, tg, t, e, og, o, extra in rows:
        print(f"{case:<20} {tg:>14} {t:>6} {e:>5} {og:>10} {o:>6}  "
              f"{fmt(extra)}")
    print()
    print(f"nnc vs PyTorch: {cases} cases, {failures} failures, "
          f"{missing_cases} with missing ops, {removed_cases} with ops our "
          f"optimiser removed, {more_cases} where we fuse more; fused aten "
          f"ops: PyTorch {total_theirs} ({total_expected} kept by our "
          f"optimiser), ours {total_ours}")
    sys.exit(1 if failures or missing_cases else 0)


if __name__ == "__main__":
    main()
