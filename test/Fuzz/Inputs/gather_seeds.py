"""Copies the files of the shared corpus that match glob patterns into one
directory, flat, under unique names (libFuzzer seeds):

    gather_seeds.py SOURCE_ROOT DEST PATTERN...

PATTERN is relative to SOURCE_ROOT, e.g. 'test/Corpus/*/*.npy'. Prints how
many files it copied.
"""

import glob
import os
import shutil
import sys


def main():
    root, dest, patterns = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(dest, exist_ok=True)
    count = 0
    for pattern in patterns:
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            rel = os.path.relpath(path, root)
            shutil.copy(path, os.path.join(dest, rel.replace(os.sep, "_")))
            count += 1
    print(f"gathered {count} seed files")


if __name__ == "__main__":
    main()
