#!/usr/bin/env python3
"""--ts-create-fusion-groups on the whole corpus, with the verifier on.

  fusion-corpus.py CORPUS_DIR WORK_DIR

1. Every case, specialised for its reference inputs (--ts-insert-guards),
   optimised, then grouped by each of the four strategies (see
   fusion_corpus_lib.py for the pipeline).
2. Every graph file of the corpus as it is, unspecialised: imported,
   --ts-optimize, then each strategy. Shapes are mostly unknown there, so
   few groups form; the point is that nothing breaks.

Prints a FAIL line per failing run and, per strategy, the groups formed and
the aten ops they hold over the corpus. Exits non-zero on a failure.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fusion_corpus_lib as lib  # noqa: E402

STRATEGIES = ["pointwise", "nnc", "nvfuser", "aggressive"]


def main():
    corpus, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    cases = sorted(c for c in os.listdir(corpus)
                   if os.path.isdir(os.path.join(corpus, c)))
    failures = 0
    specialised = collections.defaultdict(lambda: [0, 0, 0])
    plain = collections.defaultdict(lambda: [0, 0, 0])
    runs = files = 0

    for case in cases:
        folder = os.path.join(corpus, case)
        mlir, err = lib.import_case(folder, work)
        if err is not None:
            print(f"FAIL: {case}: import: {err}")
            failures += len(STRATEGIES)
            continue
        for strategy in STRATEGIES:
            runs += 1
            done = lib.run(["tsmlir-opt", mlir] +
                           lib.specialised_pipeline(folder, strategy))
            if done.returncode:
                print(f"FAIL: {case} specialised {strategy}: "
                      f"{lib.first_line(done.stderr)}")
                failures += 1
                continue
            present, fused, groups = lib.count_ops(done.stdout, strategy)
            counts = specialised[strategy]
            counts[0] += groups
            counts[1] += sum(fused.values())
            counts[2] += sum(present.values())

    for case in cases:
        folder = os.path.join(corpus, case)
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".txt"):
                continue
            files += 1
            mlir, err = lib.import_case(folder, work, name)
            if err is not None:
                print(f"FAIL: {case}/{name}: import: {err}")
                failures += len(STRATEGIES)
                continue
            for strategy in STRATEGIES:
                done = lib.run(["tsmlir-opt", mlir, "--ts-optimize",
                                f"--ts-create-fusion-groups=strategy={strategy}"])
                if done.returncode:
                    print(f"FAIL: {case}/{name} {strategy}: "
                          f"{lib.first_line(done.stderr)}")
                    failures += 1
                    continue
                present, fused, groups = lib.count_ops(done.stdout, strategy)
                counts = plain[strategy]
                counts[0] += groups
                counts[1] += sum(fused.values())
                counts[2] += sum(present.values())

    print(f"specialised: {len(cases)} cases x {len(STRATEGIES)} strategies, "
          f"{runs} runs")
    for strategy in STRATEGIES:
        groups, fused, present = specialised[strategy]
        print(f"  {strategy:<10} {groups:>4} groups, {fused:>4} of {present} "
              f"aten ops fused")
    print(f"unspecialised: {files} graph files x {len(STRATEGIES)} strategies, "
          f"{files * len(STRATEGIES)} runs")
    for strategy in STRATEGIES:
        groups, fused, present = plain[strategy]
        print(f"  {strategy:<10} {groups:>4} groups, {fused:>4} of {present} "
              f"aten ops fused")
    print(f"fusion corpus: {failures} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
