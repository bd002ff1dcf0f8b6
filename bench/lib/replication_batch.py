#!/usr/bin/env python3
"""replication_batch.py DELTA_JSONL DELTA_TRUTH OUT_JSONL

From the next night's full RESO JSON Lines dump (`fixtures generate --delta-of`), writes the replication batch:
the lines of the listings the truth says changed or are new, in feed order (copies of a duplicated listing
included), which is what a replication by ModificationTimestamp receives. Prints a JSON object with the counts.
"""
import json
import sys


def main() -> int:
    delta_path, truth_path, out_path = sys.argv[1:4]
    with open(truth_path) as f:
        delta = json.load(f)["delta"]
    changed, new = set(delta.get("changed", [])), set(delta.get("new", []))
    wanted = changed | new
    records = 0
    seen = set()
    with open(delta_path, "rb") as src, open(out_path, "wb") as dst:
        for line in src:
            if not line.strip():
                continue
            mls = json.loads(line).get("ListingId")
            if mls in wanted:
                dst.write(line if line.endswith(b"\n") else line + b"\n")
                records += 1
                seen.add(mls)
    print(json.dumps({"records": records, "changed": len(changed), "new": len(new),
                      "missing": sorted(wanted - seen)[:10]}))
    return 0 if wanted <= seen else 1


if __name__ == "__main__":
    sys.exit(main())
