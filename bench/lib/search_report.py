#!/usr/bin/env python3
"""search_report.py RUN_DIR LISTINGS SECONDS   the Markdown report of one bench/search run (printed on stdout)
   search_report.py --one PREFIX               one line about one pgbench measurement

RUN_DIR holds what bench/search wrote: roundN/PHASE-KIND-cCLIENTS.* (pgbench per-transaction logs PREFIX.<pid>[.<n>],
PREFIX.out with pgbench's summary, PREFIX.load with uptime at the start, PREFIX.pgcpu with the server's CPU seconds
during it), roundN/loads.txt and load.*.summary.json (the mlsfeed runs of the load phase), first-load.time and
.summary.json, indexes.tsv, table.txt, machine.txt, commit, pg-version.

Latency is pgbench's per-transaction time (field 3 of its log, microseconds): the parameter lookup plus the search,
prepared once per client (`-M prepared`); KIND@MODE is the same search through pgbench's protocol MODE.
Percentiles are nearest-rank over every transaction of the measurement; queries per second is pgbench's tps
(without connection time). Across rounds, the report gives the median and the range.
"""
import glob
import json
import os
import re
import statistics
import sys

# Issue 15: p95 at 8 clients, milliseconds; while a delta loads, at most 3x.
TARGET_P95_MS = {"listing": 5, "agents": 5, "quick": 5, "detailed": 25, "near": 25}
LOADING_FACTOR = 3
TARGET_CLIENTS = 8
KINDS = ["lookup", "listing", "quick", "agents", "detailed", "near", "detailed@extended", "near@extended"]
DESCRIPTION = {
    "lookup": "parameter lookup only (in every row below)",
    "listing": "`search.listing` by MLS number",
    "quick": "`search.quick` street number + name prefix",
    "agents": "`search.agents` name prefix (+ office)",
    "detailed": "`search.detailed` first page of 20",
    "near": "`search.near` 2 miles, 20 nearest",
}


def read(path, default=None):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return default


def measurement(prefix):
    """(p50, p95, p99 in ms, qps, transactions, load average) of one pgbench run."""
    latencies = []
    for path in glob.glob(glob.escape(prefix) + ".*"):
        if not re.search(r"\.\d+(\.\d+)?$", path):
            continue
        with open(path) as f:
            for line in f:
                fields = line.split()
                if len(fields) >= 3:
                    latencies.append(int(fields[2]) / 1000.0)
    latencies.sort()
    if not latencies:
        return None

    def pct(p):
        return latencies[min(len(latencies) - 1, max(0, int(round(p * len(latencies) + 0.5)) - 1))]

    out = read(prefix + ".out", "")
    m = re.search(r"tps = ([0-9.]+) \(without initial connection time\)", out)
    qps = float(m.group(1)) if m else len(latencies) / 1.0
    load = read(prefix + ".load", "")
    m = re.search(r"load average: ([0-9.]+)", load)
    cpu = read(prefix + ".pgcpu")
    return {"p50": pct(0.50), "p95": pct(0.95), "p99": pct(0.99), "qps": qps, "n": len(latencies),
            "load": float(m.group(1)) if m else None,
            "cpu_ms": float(cpu) * 1000 / len(latencies) if cpu and cpu.strip() else None}


def one(prefix):
    r = measurement(prefix)
    if r is None:
        return "no transactions logged"
    cpu = f", server CPU {r['cpu_ms']:.3f} ms/query" if r["cpu_ms"] is not None else ""
    return (f"p50 {r['p50']:.2f} ms, p95 {r['p95']:.2f} ms, p99 {r['p99']:.2f} ms, {r['qps']:.0f} qps "
            f"({r['n']} transactions, load {r['load']}{cpu})")


def describe(kind):
    """A kind's row label: KIND@MODE is KIND's label and the protocol."""
    base, _, protocol = kind.partition("@")
    label = DESCRIPTION.get(base, base)
    return f"{label}, `-M {protocol}`" if protocol else label


def spread(values, fmt):
    values = [v for v in values if v is not None]
    if not values:
        return "–"
    med = statistics.median(values)
    if len(values) == 1:
        return fmt(med)
    return f"{fmt(med)} ({fmt(min(values))}–{fmt(max(values))})"


def ms(v):
    return f"{v:.2f}" if v < 10 else f"{v:.1f}"


def report(run_dir, listings, seconds):
    rounds = sorted(d for d in os.listdir(run_dir) if re.fullmatch(r"round\d+", d))
    results = {}       # (phase, kind, clients) -> [measurement per round]
    clients_seen = set()
    kinds_seen = []
    for rnd in rounds:
        for path in glob.glob(os.path.join(run_dir, rnd, "*.out")):
            name = os.path.basename(path)[:-4]
            m = re.fullmatch(r"(idle|loading)-([a-z]+(?:@[a-z]+)?)-c(\d+)", name)
            if not m or m.group(1) == "load":
                continue
            phase, kind, c = m.group(1), m.group(2), int(m.group(3))
            r = measurement(path[:-4])
            if r is None:
                continue
            results.setdefault((phase, kind, c), []).append(r)
            clients_seen.add(c)
            if kind not in kinds_seen:
                kinds_seen.append(kind)
    kinds = [k for k in KINDS if k in kinds_seen] + [k for k in kinds_seen if k not in KINDS]
    clients = sorted(clients_seen)

    machine = dict(line.split("=", 1) for line in read(os.path.join(run_dir, "machine.txt"), "").splitlines()
                   if "=" in line)
    commit = (read(os.path.join(run_dir, "commit"), "?") or "?").strip()
    first = read(os.path.join(run_dir, "first-load.time"), "")
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", first)
    first_wall = None
    if m:
        first_wall = 0.0
        for part in m.group(1).split(":"):
            first_wall = first_wall * 60 + float(part)
    table = (read(os.path.join(run_dir, "table.txt"), "") or "").strip().split("|")
    indexes = [line.split("\t") for line in (read(os.path.join(run_dir, "indexes.tsv"), "") or "").splitlines()]

    loads = []
    for rnd in rounds:
        for line in (read(os.path.join(run_dir, rnd, "loads.txt"), "") or "").splitlines():
            i, rc, name, start, end = line.split()
            summary = read(os.path.join(run_dir, rnd, f"load.{i}.summary.json"))
            counts = json.loads(summary) if summary else {}
            loads.append({"rc": int(rc), "input": name, "seconds": float(end) - float(start),
                          "inserted": counts.get("inserted"), "updated": counts.get("updated"),
                          "withdrawn": counts.get("withdrawn"), "status": counts.get("status")})
    phase_loads = {phase: [r["load"] for (p, _, _), rs in results.items() if p == phase for r in rs]
                   for phase in ("idle", "loading")}

    out = []
    out.append(f"# Search benchmark: {listings:,} listings, {machine.get('date', '?')}")
    out.append("")
    out.append(f"`bench/search` at commit {commit[:7]}: {len(rounds)} rounds of {seconds} s per measurement; "
               f"each cell is the median of the rounds (range in brackets).")
    protocol = (read(os.path.join(run_dir, "protocol"), "extended") or "extended").strip()
    shared_buffers = (read(os.path.join(run_dir, "shared-buffers"), "512MB") or "512MB").strip()
    out.append(f"Each pgbench client runs its statements with `-M {protocol}`"
               + (" (prepared once, then executed with new parameters)" if protocol == "prepared" else "")
               + "; a row that names another protocol ran the same search through that one. "
               + f"The server's shared_buffers: {shared_buffers}.")
    out.append(f"Machine: {machine.get('nproc', '?')} cores ({machine.get('cpu', '?')}), {machine.get('memory', '?')}, "
               f"{machine.get('kernel', '?')}, {machine.get('postgres', '?')}; {machine.get('swift', '')}.")
    for phase in ("idle", "loading"):
        values = [v for v in phase_loads[phase] if v is not None]
        if values:
            out.append(f"1-minute load average at the start of the {phase} measurements: "
                       f"{min(values):.1f}–{max(values):.1f}.")
    if len(table) == 2:
        out.append(f"Data: {int(table[1]):,} listings ({table[0]} table)"
                   + (f", first load with `mlsfeed run` {first_wall:.1f} s" if first_wall else "") + ".")
    if indexes:
        out.append("Indexes: " + ", ".join(f"`{name}` {size}" for name, size in indexes) + ".")
    out.append("")
    header = "| search | clients | p50 ms | p95 ms | p99 ms | queries/s | loading: p50 ms | p95 ms | p99 ms | queries/s |"
    out.append(header)
    out.append("|" + "---|" * 2 + "---:|" * 8)
    for kind in kinds:
        for c in clients:
            cells = []
            for phase in ("idle", "loading"):
                rs = results.get((phase, kind, c), [])
                cells += [spread([r[k] for r in rs], ms) for k in ("p50", "p95", "p99")]
                cells.append(spread([r["qps"] for r in rs], lambda v: f"{v:,.0f}"))
            out.append(f"| {describe(kind)} | {c} | " + " | ".join(cells) + " |")
    out.append("")
    if any(r.get("cpu_ms") is not None for (phase, _, _), rs in results.items() if phase == "idle" for r in rs):
        out.append("Server CPU per query, idle (PostgreSQL's CPU time during the measurement over its transactions: "
                   "what a search costs the server, less sensitive than latency to what else the machine runs; the "
                   "parameter lookup is in every row):")
        out.append("")
        out.append("| search | " + " | ".join(f"{c} client{'s' if c > 1 else ''}: CPU ms" for c in clients) + " |")
        out.append("|---|" + "---:|" * len(clients))
        for kind in kinds:
            cells = [spread([r.get("cpu_ms") for r in results.get(("idle", kind, c), [])],
                            lambda v: f"{v:.3f}") for c in clients]
            out.append(f"| {describe(kind)} | " + " | ".join(cells) + " |")
        out.append("")
    out.append(f"Targets (issue 15), p95 at {TARGET_CLIENTS} clients, idle / while a delta loads "
               f"(at most {LOADING_FACTOR}x):")
    out.append("")
    for kind in kinds:
        if kind not in TARGET_P95_MS:
            continue
        target = TARGET_P95_MS[kind]
        verdicts = []
        for phase, limit in (("idle", target), ("loading", target * LOADING_FACTOR)):
            rs = results.get((phase, kind, TARGET_CLIENTS), [])
            if not rs:
                verdicts.append(f"{phase}: not measured")
                continue
            p95 = statistics.median(r["p95"] for r in rs)
            verdicts.append(f"{phase} {ms(p95)} ms ≤ {limit} ms: {'met' if p95 <= limit else 'NOT met'}")
        out.append(f"- {kind}: " + "; ".join(verdicts))
    if loads:
        done = [l for l in loads if l["rc"] == 0]
        durations = sorted(l["seconds"] for l in done)
        out.append("")
        out.append(f"Loads during the load phases: {len(loads)} `mlsfeed run` of the deltas in "
                   f"turn ({len(done)} succeeded), {statistics.median(durations):.1f} s median"
                   if durations else f"Loads during the load phases: {len(loads)}, none succeeded")
        changed = [l for l in done if l["updated"] is not None]
        if changed:
            out[-1] += (f"; each inserted {statistics.median(l['inserted'] for l in changed):,.0f}, updated "
                        f"{statistics.median(l['updated'] for l in changed):,.0f} and withdrew "
                        f"{statistics.median(l['withdrawn'] for l in changed):,.0f} listings (median).")
        else:
            out[-1] += "."
    out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        print(one(sys.argv[2]))
    elif len(sys.argv) == 4:
        print(report(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
