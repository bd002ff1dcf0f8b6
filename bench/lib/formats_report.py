#!/usr/bin/env python3
"""formats_report.py RUN_DIR: the Markdown report of one bench/formats run (printed on stdout); measurements are read
with report.py's helpers (and `report.py --one PREFIX` prints one line about one).

RUN_DIR holds machine.txt, commit, pg-version and one directory per format (syndication/, reso-json/) with the raw
outputs of bench/formats: NAME.i.time (`/usr/bin/time -v`), NAME.i.load (uptime at the start), NAME.i.out,
NAME.i.summary.json (mlsfeed runs), feed.bytes, batch.bytes, replication.json and checks.jsonl.

Every cell is the median of the runs with the range (min–max) in brackets; MB = 10^6 bytes, RSS in MiB.
"""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import emit_checks, emit_stages, read, rss, run_info, runs  # noqa: E402

MB = 1_000_000
RSS_LIMIT_MIB = 150
PARSE_VS_XMLLINT = 0.60


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def cell(values, fmt="{:.2f}"):
    values = [v for v in values if v is not None]
    if not values:
        return "–"
    text = fmt.format(statistics.median(values))
    if len(values) > 1:
        text += f" [{fmt.format(min(values))}–{fmt.format(max(values))}]"
    return text


def loads(ms):
    return ", ".join(m["load"] for m in ms) or "–"


def summary_field(ms, key):
    return [m.get("summary", {}).get(key) for m in ms]


def report(run_dir):
    lines = []
    emit = lines.append
    machine, commit, _ = run_info(run_dir)
    emit(f"# Formats benchmark, {machine.get('date', '?')}")
    emit("")
    emit(f"`bench/formats` at commit {commit[:7]}. Each cell: median of the runs [min–max]; MB = 10^6 bytes, "
         "peak RSS in MiB (`/usr/bin/time -v`), load = the 1-minute load average at the start of each run.")
    emit(f"Machine: {machine.get('nproc', '?')} cores ({machine.get('cpu', '?')}), {machine.get('memory', '?')}, "
         f"{machine.get('kernel', '?')}, {machine.get('postgres', '?')}; {machine.get('swift', '?')}; "
         f"{machine.get('xmllint', '?')}.")
    emit("")

    def step_row(label, ms, nbytes, records=None):
        walls = [m["wall"] for m in ms]
        rates = [nbytes / MB / w if w else None for w in walls]
        per_s = [records / w if records and w else None for w in walls]
        cpu = [m.get("user", 0) + m.get("sys", 0) for m in ms]
        return (f"| {label} | {len(ms)} | {cell(walls)} | {cell(rates, '{:.1f}')} | "
                f"{cell(per_s, '{:,.0f}')} | {cell(cpu)} | {cell([rss(m) for m in ms], '{:.0f}')} | {loads(ms)} |")

    header = ("| step | runs | wall s | MB/s | records/s | CPU s (user + sys) | peak RSS MiB | load at start |\n"
              "|---|---:|---:|---:|---:|---:|---:|---|")

    d = os.path.join(run_dir, "syndication")
    if os.path.isdir(d):
        nbytes = int((read(os.path.join(d, "feed.bytes"), "0") or "0").strip())
        first = runs(d, "first-load")
        records = med(summary_field(first, "read"))
        emit(f"## Nested XML: syndication ({nbytes / MB:,.0f} MB, "
             f"{int(records) if records else 0:,} records), issue 13")
        emit("")
        emit(header)
        xl, bp = runs(d, "xmllint"), runs(d, "bench-parse")
        emit(step_row("`xmllint --stream --noout`", xl, nbytes, records))
        emit(step_row("`mlsfeed bench-parse --pipeline syndication.yaml` (parse stage)", bp, nbytes, records))
        emit(step_row("`mlsfeed run pipelines/syndication.yaml` first load (full)", first, nbytes, records))
        emit("")
        if first:
            s = first[0].get("summary", {})
            emit(f"First load rows (run 1): read {s.get('read', '?'):,}, rejected {s.get('rejected', '?'):,}, "
                 f"duplicates {s.get('duplicates', '?'):,}, inserted {s.get('inserted', '?'):,}.")
            emit("")
        ratios = [x["wall"] / b["wall"] for x, b in zip(xl, bp)]
        ratio = med([x["wall"] for x in xl]) / med([b["wall"] for b in bp]) if xl and bp else None
        peak = max([rss(m) for m in first] or [0])
        emit("Targets (issue 13):")
        emit("")
        if ratio is not None:
            cpu = med([x["user"] + x["sys"] for x in xl]) / med([b["user"] + b["sys"] for b in bp])
            emit(f"- parse stage at {ratio:.0%} of `xmllint --stream`'s speed (wall-clock medians; per-run pairs "
                 f"{', '.join(f'{r:.0%}' for r in ratios)}; by CPU seconds {cpu:.0%}), target ≥ "
                 f"{PARSE_VS_XMLLINT:.0%}: {'met' if ratio >= PARSE_VS_XMLLINT else 'NOT met'}")
        if first:
            emit(f"- first load peak RSS {med([rss(m) for m in first]):.0f} MiB (highest of the runs {peak:.0f}), "
                 f"target < {RSS_LIMIT_MIB}: {'met' if peak < RSS_LIMIT_MIB else 'NOT met'}")
        emit("")
        emit_stages(emit, [(m["name"], m) for m in first])
        emit_checks(emit, d)

    d = os.path.join(run_dir, "reso-json")
    if os.path.isdir(d):
        nbytes = int((read(os.path.join(d, "feed.bytes"), "0") or "0").strip())
        batch_bytes = int((read(os.path.join(d, "batch.bytes"), "0") or "0").strip())
        first, repl = runs(d, "first-load"), runs(d, "replication")
        records = med(summary_field(first, "read"))
        emit(f"## RESO JSON ({nbytes / MB:,.0f} MB of JSON Lines, {int(records) if records else 0:,} records), "
             "issue 14")
        emit("")
        emit("Parse of the same file:")
        emit("")
        emit(header)
        jp, bp, py, jq = runs(d, "json-parser"), runs(d, "bench-parse"), runs(d, "python-json"), runs(d, "jq")
        emit(step_row("`mlsfeed bench-parse --input-format reso-json` (JSON parser alone, yajl)", jp, nbytes, records))
        emit(step_row("`mlsfeed bench-parse --pipeline` (parse stage: records by the mapping's paths)", bp, nbytes,
                      records))
        emit(step_row("Python 3 `json.loads` per line", py, nbytes, records))
        if jq:
            emit(step_row("`jq empty`", jq, nbytes, records))
        emit("")
        py_wall = med([m["wall"] for m in py])
        for label, ms in (("JSON parser alone", jp), ("parse stage", bp), ("jq", jq)):
            if ms and py_wall:
                pairs = ", ".join(f"{p['wall'] / m['wall']:.2f}×" for p, m in zip(py, ms))
                emit(f"- {label}: {py_wall / med([m['wall'] for m in ms]):.2f}× Python's `json` "
                     f"(per-run pairs {pairs})")
        emit("")
        batch = json.loads(read(os.path.join(d, "replication.json"), "{}") or "{}")
        emit(f"Loads (first load of the file, then the replication batch: {batch.get('records', 0):,} records, "
             f"{batch_bytes / MB:,.1f} MB: the {batch.get('changed', 0):,} changed and {batch.get('new', 0):,} new "
             "listings of the next night), incremental mode, a fresh database per run:")
        emit("")
        emit(header)
        emit(step_row("first load", first, nbytes, records))
        repl_records = med(summary_field(repl, "read"))
        emit(step_row("replication of a 2% change (+0.5% new)", repl, batch_bytes, repl_records))
        emit("")
        for label, ms in (("first load", first), ("replication", repl)):
            if ms:
                s = ms[0].get("summary", {})
                emit(f"{label} rows (run 1): read {s.get('read', '?'):,}, rejected {s.get('rejected', '?'):,}, "
                     f"duplicates {s.get('duplicates', '?'):,}, inserted {s.get('inserted', '?'):,}, "
                     f"updated {s.get('updated', '?'):,}, unchanged {s.get('unchanged', '?'):,}.")
        emit("")
        peak = max([rss(m) for m in first + repl] or [0])
        emit("Targets (issue 14):")
        emit("")
        emit(f"- peak RSS: first load {cell([rss(m) for m in first], '{:.0f}')} MiB, replication "
             f"{cell([rss(m) for m in repl], '{:.0f}')} MiB; highest {peak:.0f}, target < {RSS_LIMIT_MIB}: "
             f"{'met' if peak < RSS_LIMIT_MIB else 'NOT met'}")
        if bp and py_wall:
            emit(f"- parse stage {cell([nbytes / MB / m['wall'] for m in bp], '{:.1f}')} MB/s vs Python's `json` "
                 f"{cell([nbytes / MB / m['wall'] for m in py], '{:.1f}')} MB/s")
        emit("")
        emit_stages(emit, [(m["name"], m) for m in first + repl])
        emit_checks(emit, d)
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    sys.stdout.write(report(sys.argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
