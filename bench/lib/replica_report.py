#!/usr/bin/env python3
"""replica_report.py RUN_DIR      the Markdown report of one bench/replica run (printed on stdout)
   replica_report.py --one PREFIX  one line about one step

RUN_DIR holds what bench/replica wrote: N/STEP.* per size N and step (first-load, vacuum, delta):
  STEP.time, STEP.load, STEP.pgcpu, STEP.summary.json  as bench/run's (report.py reads them)
  STEP.lag.csv       pg_stat_replication sampled every second from the step's start until the standby had replayed it:
                     t, wal, sent/write/flush/replay lag bytes, write/flush/replay lag seconds, slot_retained_bytes,
                     state (empty fields: no value, e.g. replay_lag once the standby is idle)
  STEP.started, STEP.ended   the step's start and end (epoch seconds)
  STEP.lsn-before, STEP.lsn-after   pg_current_wal_lsn() around the step
  STEP.stat-wal      pg_stat_wal after the step (reset before it): records, full-page images, bytes
  STEP.catchup       seconds from the step's end until the standby had replayed all its WAL
  STEP.standby-cpu   the standby's CPU seconds from the step's start until then
and settings, primary-settings, machine.txt, commit, build.txt, pg-version at the top.

Max and p95 are over the samples from the step's start until the catch-up ended (nearest rank). A replay_lag in
seconds is only known while the standby has WAL to replay: a sample without one counts as 0 s when the standby had
replayed everything (replay lag 0 bytes) and is left out otherwise.
"""
import csv
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import measurement, read  # noqa: E402

STEPS = [("first-load", "first load"), ("vacuum", "VACUUM ANALYZE"), ("delta", "next night's delta")]
FIELDS = ["t", "wal", "sent_lag_bytes", "write_lag_bytes", "flush_lag_bytes", "replay_lag_bytes", "write_lag_s",
          "flush_lag_s", "replay_lag_s", "slot_retained_bytes", "state"]


def lsn_bytes(text):
    """An LSN `X/Y` as a byte position."""
    high, low = text.strip().split("/")
    return (int(high, 16) << 32) + int(low, 16)


def number(text):
    return float(text) if text not in (None, "") else None


def samples(path):
    rows = []
    for line in csv.reader((read(path, "") or "").splitlines()):
        if len(line) != len(FIELDS):
            continue
        row = dict(zip(FIELDS, line))
        try:
            row = {k: (v if k == "state" else number(v)) for k, v in row.items()}
        except ValueError:
            continue
        rows.append(row)
    return rows


def p95(values):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def mib(n):
    return "–" if n is None else f"{n / 1048576:,.1f} MiB"


def secs(x):
    return "–" if x is None else f"{x:,.1f} s"


def step_facts(prefix):
    """What one step measured, or None when it was not run."""
    d, name = os.path.dirname(prefix), os.path.basename(prefix)
    m = measurement(d, name)
    if m is None:
        return None
    facts = {"wall": m["wall"], "load": m["load"], "pgcpu": m.get("pgcpu"), "summary": m.get("summary")}
    before, after = read(prefix + ".lsn-before"), read(prefix + ".lsn-after")
    facts["wal"] = lsn_bytes(after) - lsn_bytes(before) if before and after else None
    stat = (read(prefix + ".stat-wal", "") or "").strip().split(",")
    facts["records"], facts["fpi"], facts["wal_bytes"] = (
        (int(stat[0]), int(stat[1]), int(stat[2])) if len(stat) == 3 else (None, None, None))
    facts["catchup"] = number((read(prefix + ".catchup", "") or "").strip())
    facts["standby_cpu"] = number((read(prefix + ".standby-cpu", "") or "").strip())
    rows = samples(prefix + ".lag.csv")
    facts["samples"] = len(rows)
    facts["disconnected"] = sum(1 for r in rows if r["state"] != "streaming")
    for key in ("replay_lag_bytes", "write_lag_bytes", "slot_retained_bytes"):
        values = [r[key] for r in rows if r[key] is not None]
        facts[key] = (max(values) if values else None, p95(values))
    seconds = [r["replay_lag_s"] if r["replay_lag_s"] is not None else 0.0 for r in rows
               if r["replay_lag_s"] is not None or r["replay_lag_bytes"] == 0]
    facts["replay_lag_s"] = (max(seconds) if seconds else None, p95(seconds))
    return facts


def one_line(prefix):
    f = step_facts(prefix)
    if f is None:
        return "no measurement"
    return (f"{f['wall']:.1f} s wall, WAL {mib(f['wal'])} ({f['fpi'] or 0:,} full-page images), replay lag max "
            f"{mib(f['replay_lag_bytes'][0])} / {secs(f['replay_lag_s'][0])}, caught up {secs(f['catchup'])} after "
            f"it, load {f['load']}")


def report(run_dir):
    out = []
    emit = out.append
    machine = dict(line.split("=", 1) for line in (read(os.path.join(run_dir, "machine.txt"), "") or "").splitlines()
                   if "=" in line)
    commit = (read(os.path.join(run_dir, "commit"), "?") or "?").strip()
    build = (read(os.path.join(run_dir, "build.txt"), "") or "").strip().replace("\n", "; ")
    settings = [s for s in (read(os.path.join(run_dir, "settings"), "") or "").splitlines() if s]
    server = [s for s in (read(os.path.join(run_dir, "primary-settings"), "") or "").splitlines() if s]
    emit(f"# Replication lag while mlsfeed loads the primary, {machine.get('date', '?')}")
    emit("")
    emit("`bench/replica" + "".join(f" --set {s}" for s in settings) + "`: one primary that `mlsfeed run` loads and "
         "one hot standby streaming from it (`pg_basebackup -R -X stream -C -S replica`: a physical replication "
         "slot), both on this machine, so the standby's replay shares its cores with the load. "
         "`pg_stat_replication` sampled every second from each step's start until the standby had replayed it.")
    emit("")
    emit(f"Commit {commit[:12]}; {build}.")
    emit(f"Machine: {machine.get('nproc', '?')} cores ({machine.get('cpu', '?')}), {machine.get('memory', '?')}, "
         f"{machine.get('kernel', '?')}, {machine.get('postgres', '?')}; load at the end {machine.get('load', '?')}.")
    emit("Primary settings: " + ", ".join(f"`{s}`" for s in server) + ".")
    emit("")
    sizes = sorted((int(e) for e in os.listdir(run_dir) if e.isdigit()), key=int)
    for n in sizes:
        d = os.path.join(run_dir, str(n))
        emit(f"## {n:,} listings")
        emit("")
        size = (read(os.path.join(d, "database.size"), "") or "").strip()
        if size:
            emit(f"Database after the delta: {size}.")
            emit("")
        emit("| step | wall | WAL (LSN diff) | WAL records | full-page images | replay lag max | p95 | write lag max "
             "| p95 | replay_lag max | p95 | slot held max | caught up after | primary CPU | standby CPU | load |")
        emit("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        notes = []
        for step, label in STEPS:
            f = step_facts(os.path.join(d, step))
            if f is None:
                continue
            emit(f"| {label} | {f['wall']:,.1f} s | {mib(f['wal'])} | "
                 f"{'–' if f['records'] is None else format(f['records'], ',')} | "
                 f"{'–' if f['fpi'] is None else format(f['fpi'], ',')} | "
                 f"{mib(f['replay_lag_bytes'][0])} | {mib(f['replay_lag_bytes'][1])} | "
                 f"{mib(f['write_lag_bytes'][0])} | {mib(f['write_lag_bytes'][1])} | "
                 f"{secs(f['replay_lag_s'][0])} | {secs(f['replay_lag_s'][1])} | {mib(f['slot_retained_bytes'][0])} | "
                 f"{secs(f['catchup'])} | {secs(f['pgcpu'])} | {secs(f['standby_cpu'])} | {f['load']} |")
            if f["disconnected"]:
                notes.append(f"{label}: {f['disconnected']} of {f['samples']} samples found the standby not "
                             "streaming")
            if f["wal_bytes"] is not None and f["wal"] is not None:
                notes.append(f"{label}: pg_stat_wal counted {mib(f['wal_bytes'])} of WAL ({f['samples']} samples)")
        emit("")
        for note in notes:
            emit(f"- {note}")
        emit("")
    emit("Columns: wall = the step's wall time (`/usr/bin/time -v`); WAL = `pg_current_wal_lsn()` after minus before "
         "the step; records and full-page images from `pg_stat_wal` (reset before the step); replay and write lag = "
         "`pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn | write_lsn)`; replay_lag = `pg_stat_replication."
         "replay_lag` (seconds); slot held = the WAL the slot kept for the standby (`pg_current_wal_lsn()` minus the "
         "slot's `restart_lsn`); caught up after = from the step's end until the standby had replayed all of it; CPU "
         "= the servers' CPU seconds (from `/proc`) during the step (the standby's until it caught up); load = the "
         "1-minute load average at the step's start.")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        print(one_line(sys.argv[2]))
        return 0
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    sys.stdout.write(report(sys.argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
