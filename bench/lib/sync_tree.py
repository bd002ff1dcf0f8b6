#!/usr/bin/env python3
"""sync_tree.py SRC DST: make DST a copy of SRC, touching only files whose content differs.

bench/run extracts `git archive HEAD` into a fresh directory, then syncs it into the build's source snapshot with
this, so files that did not change keep their modification time and `swift build` rebuilds incrementally.
"""
import filecmp
import os
import shutil
import sys


def main() -> int:
    src, dst = sys.argv[1], sys.argv[2]
    changed = removed = 0
    wanted = set()
    for root, dirs, files in os.walk(src):
        rel = os.path.relpath(root, src)
        target_root = os.path.normpath(os.path.join(dst, rel))
        os.makedirs(target_root, exist_ok=True)
        wanted.add(os.path.normpath(rel))
        for name in files:
            s = os.path.join(root, name)
            d = os.path.join(target_root, name)
            wanted.add(os.path.normpath(os.path.join(rel, name)))
            if os.path.islink(s) or os.path.islink(d):
                if os.path.lexists(d):
                    os.remove(d)
                shutil.copy2(s, d, follow_symlinks=False)
                changed += 1
            elif not os.path.isfile(d) or not filecmp.cmp(s, d, shallow=False):
                shutil.copy2(s, d)
                changed += 1
    # Remove what HEAD no longer has (bottom-up so directories empty out first).
    for root, dirs, files in os.walk(dst, topdown=False):
        rel = os.path.relpath(root, dst)
        for name in files:
            r = os.path.normpath(os.path.join(rel, name))
            if r not in wanted:
                os.remove(os.path.join(root, name))
                removed += 1
        if os.path.normpath(rel) not in wanted and not os.listdir(root):
            os.rmdir(root)
    print(f"snapshot: {changed} file(s) updated, {removed} removed", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
