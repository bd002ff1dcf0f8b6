#!/usr/bin/env python3
"""jobs_report.py RUN_DIR              the Markdown report of one bench/jobs run (printed on stdout)
   jobs_report.py --one RUN_DIR NAME   one line about one run
   jobs_report.py --split SUMMARY DIR  writes each source's unit of a several-pipeline summary JSON (an array) to
                                       DIR/<source>.summary.json, for bench/lib/check.py

RUN_DIR holds what bench/jobs wrote: per job count J and run r, jobs-J.r.* as bench/run's measurements (.time,
.load, .pgcpu, .rc; report.py reads them), jobs-J.r.summary.json (every source's unit), jobs-J.r.checks.jsonl
(check.py's checks of every source), jobs-J.r.ledger (`status,count` of ingest_runs); and settings, feeds.bytes,
machine.txt, commit, build.txt, pg-version at the top.

The median run of a job count is the one of median wall time (the upper of an even count), its range beside it;
peak RSS is the one process's (every job shares it): divided by J, what a job holds on average.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import cpu, fmt_s, median_item, parse_time, read, rss, load1  # noqa: E402


def split(summary_path, out_dir):
    with open(summary_path) as f:
        units = json.load(f)
    if isinstance(units, dict):
        units = [units]
    for unit in units:
        with open(os.path.join(out_dir, unit["source"] + ".summary.json"), "w") as f:
            json.dump(unit, f)
    return 0


def measured(run_dir, name):
    """One run's facts: wall, peak RSS, CPU, the server's CPU, load, listings loaded, checks, ledger."""
    t = parse_time(os.path.join(run_dir, name + ".time"))
    if t is None:
        return None
    facts = {"name": name, "wall": t["wall"], "rss": rss(t), "cpu": cpu(t), "load": load1(os.path.join(run_dir,
                                                                                                       name + ".load"))}
    pgcpu = (read(os.path.join(run_dir, name + ".pgcpu"), "") or "").strip()
    facts["pgcpu"] = float(pgcpu) if pgcpu else None
    try:
        with open(os.path.join(run_dir, name + ".summary.json")) as f:
            units = json.load(f)
    except (OSError, json.JSONDecodeError):
        units = []
    if isinstance(units, dict):
        units = [units]
    facts["units"] = len(units)
    facts["read"] = sum(u.get("read", 0) for u in units)
    facts["inserted"] = sum(u.get("inserted", 0) for u in units)
    checks = [json.loads(line) for line in (read(os.path.join(run_dir, name + ".checks.jsonl"), "") or "")
              .splitlines() if line.strip()]
    facts["checks"] = (sum(1 for c in checks if c["ok"]), len(checks))
    facts["failed"] = [c for c in checks if not c["ok"]]
    facts["ledger"] = (read(os.path.join(run_dir, name + ".ledger"), "") or "").strip().replace("\n", "; ")
    return facts


def runs_of(run_dir, jobs):
    found = []
    for entry in sorted(os.listdir(run_dir)):
        m = re.fullmatch(rf"jobs-{jobs}\.(\d+)\.time", entry)
        if m:
            f = measured(run_dir, entry[:-len(".time")])
            if f:
                found.append(f)
    return found


def one_line(run_dir, name):
    f = measured(run_dir, name)
    if f is None:
        return "no measurement"
    ok, total = f["checks"]
    return (f"{f['wall']:.2f} s wall, peak RSS {f['rss']:.0f} MiB, {f['units']} runs, read {f['read']:,}, inserted "
            f"{f['inserted']:,}; checks {ok}/{total} passed; ledger {f['ledger']}; load {f['load']}")


def mib(x):
    return "–" if x is None else f"{x:.0f}"


def report(run_dir):
    out = []
    emit = out.append
    machine = dict(line.split("=", 1) for line in (read(os.path.join(run_dir, "machine.txt"), "") or "").splitlines()
                   if "=" in line)
    settings = dict(line.split("=", 1) for line in (read(os.path.join(run_dir, "settings"), "") or "").splitlines()
                    if "=" in line)
    commit = (read(os.path.join(run_dir, "commit"), "?") or "?").strip()
    build = (read(os.path.join(run_dir, "build.txt"), "") or "").strip().replace("\n", "; ")
    sources, listings = int(settings.get("sources", 0)), int(settings.get("listings", 0))
    job_counts = [int(j) for j in settings.get("jobs", "").split(",") if j]
    feed_bytes = int((read(os.path.join(run_dir, "feeds.bytes"), "0") or "0").strip() or 0)
    emit(f"# {sources} sources × {listings:,} listings, serial and with several jobs, {machine.get('date', '?')}")
    emit("")
    emit(f"`bench/jobs --sources {sources} --listings {listings} --jobs {settings.get('jobs', '?')} --repeat "
         f"{settings.get('repeat', '?')}`: one `mlsfeed run` of {sources} pipeline files (one per source, "
         f"pipelines/sample.yaml with its own `source.id`, generated triples feeds of {feed_bytes / 1e6:,.0f} MB in "
         "all), each into a fresh database, first loads.")
    emit("")
    emit(f"Commit {commit[:12]}; {build}.")
    emit(f"Machine: {machine.get('nproc', '?')} cores ({machine.get('cpu', '?')}), {machine.get('memory', '?')}, "
         f"{machine.get('kernel', '?')}, {machine.get('postgres', '?')}; load at the end {machine.get('load', '?')}.")
    emit("")
    emit("| --jobs | runs | wall (median) | range | speedup | listings/s | peak RSS MiB | peak RSS / jobs | "
         "mlsfeed CPU s | server CPU s | checks | load at start |")
    emit("|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---|---|")
    serial = None
    failures = []
    for j in job_counts:
        runs = runs_of(run_dir, j)
        if not runs:
            emit(f"| {j} | 0 | – | – | – | – | – | – | – | – | – | – |")
            continue
        chosen = median_item(runs, lambda f: f["wall"])
        if j == 1:
            serial = chosen["wall"]
        walls = [f["wall"] for f in runs]
        rsses = [f["rss"] for f in runs if f["rss"] is not None]
        ok = sum(f["checks"][0] for f in runs)
        total = sum(f["checks"][1] for f in runs)
        failures += [(f["name"], c) for f in runs for c in f["failed"]]
        speedup = f"{serial / chosen['wall']:.2f}×" if serial else "–"
        rate = f"{chosen['inserted'] / chosen['wall']:,.0f}" if chosen["wall"] else "–"
        rss_range = f"{mib(min(rsses))}–{mib(max(rsses))}" if len(rsses) > 1 and min(rsses) != max(rsses) else ""
        emit(f"| {j} | {len(runs)} | {fmt_s(chosen['wall'])} s | {fmt_s(min(walls))}–{fmt_s(max(walls))} s | "
             f"{speedup} | {rate} | {mib(chosen['rss'])}" + (f" ({rss_range})" if rss_range else "")
             + f" | {mib(chosen['rss'] / j if chosen['rss'] else None)} | {fmt_s(chosen['cpu'])} | "
             f"{fmt_s(chosen['pgcpu'])} | {ok}/{total} | {', '.join(f['load'] for f in runs)} |")
    emit("")
    emit("Wall and peak RSS are `/usr/bin/time -v`'s for the one process; peak RSS / jobs is what a job holds on "
         "average (the code, about 25–30 MB, is counted once). Checks: every source's summary and rows against its "
         "truth file, as `bench/run` checks a first load (`bench/lib/check.py`).")
    if failures:
        emit("")
        emit("## Failed checks")
        emit("")
        for name, c in failures:
            emit(f"- {name}: {c['phase']}: {c['check']}: expected {c['expected']}, got {c['actual']}")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--split":
        return split(sys.argv[2], sys.argv[3])
    if len(sys.argv) == 4 and sys.argv[1] == "--one":
        print(one_line(sys.argv[2], sys.argv[3]))
        return 0
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    sys.stdout.write(report(sys.argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
