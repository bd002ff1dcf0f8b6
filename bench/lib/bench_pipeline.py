#!/usr/bin/env python3
"""bench_pipeline.py FORMAT PIPELINES_DIR OUT_DIR

Prints the pipeline file a benchmark run of FORMAT uses, writing a derived copy into OUT_DIR when no shipped
pipeline reads that format from a file:

  triples       pipelines/sample.yaml as shipped
  syndication   pipelines/syndication.yaml as shipped
  rets-compact  OUT_DIR/rets-compact.yaml: pipelines/sample.yaml with `format: {type: rets-compact}` (the generator
                writes the same columns as the triples feed, so the servlet mapping reads both)
  reso-json     OUT_DIR/reso-file.yaml: pipelines/reso-web-api.yaml reading a file: its `http` block (fetch, OAuth2,
                replication by the high-water mark, deletions) and `input` left out, everything else as shipped

A derived copy names its mapping by absolute path, so it works from OUT_DIR.
"""
import os
import sys

SHIPPED = {"triples": "sample.yaml", "syndication": "syndication.yaml"}


def derive(src, drop_block, replace_block=None):
    """src's lines without the `  input:` line, comments and the indented block under `drop_block`; the top-level
    block `replace_block[0]` replaced by the lines `replace_block[1]`; `mapping:` made absolute."""
    out, skip = [], False
    for line in open(src).read().splitlines():
        if drop_block and line.startswith(drop_block):
            skip = True
            continue
        if replace_block and line.startswith(replace_block[0]):
            out.extend(replace_block[1])
            skip = True
            continue
        if skip and line.startswith("  "):
            continue
        skip = False
        if line.startswith("  input:") or line.startswith("#"):
            continue
        if line.startswith("mapping: "):
            line = "mapping: " + os.path.join(os.path.dirname(os.path.abspath(src)), line.split(": ", 1)[1].split()[0])
        out.append(line)
    return out


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    fmt, pipelines, out_dir = sys.argv[1:4]
    if fmt in SHIPPED:
        print(os.path.join(pipelines, SHIPPED[fmt]))
        return 0
    if fmt == "rets-compact":
        dst = os.path.join(out_dir, "rets-compact.yaml")
        lines = derive(os.path.join(pipelines, "sample.yaml"), None, ("format:", ["format:", "  type: rets-compact"]))
        header = "# pipelines/sample.yaml reading RETS COMPACT (bench)"
    elif fmt == "reso-json":
        dst = os.path.join(out_dir, "reso-file.yaml")
        lines = derive(os.path.join(pipelines, "reso-web-api.yaml"), "  http:")
        header = "# pipelines/reso-web-api.yaml reading a file (bench)"
    else:
        print(f"bench_pipeline.py: unknown format {fmt}", file=sys.stderr)
        return 2
    with open(dst, "w") as f:
        f.write(header + "\n" + "\n".join(lines) + "\n")
    print(dst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
