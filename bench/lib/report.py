#!/usr/bin/env python3
"""report.py RUN_DIR          the Markdown report of one bench/run run (printed on stdout)
   report.py --one PREFIX     one line about one measured mlsfeed run (PREFIX.time, PREFIX.summary.json)

RUN_DIR holds, per size, a directory N/ with the raw outputs bench/run wrote:
  NAME.time          `/usr/bin/time -v` report (wall clock, peak RSS)
  NAME.load          `uptime` at the start of the measurement
  NAME.summary.json  mlsfeed's --summary-json (mlsfeed runs)
  NAME.pglog         the server log lines written during the run (slow statements, auto_explain plans, errors)
  reload-floor.out   psql output of the reload-floor session (\\timing lines)
  checks.jsonl       check.py results
and machine.txt, commit, build.txt, pg-version at the top.
"""
import json
import os
import re
import sys

MB = 1_000_000          # feed sizes and throughput in MB (10^6 bytes), RSS in MiB (as the "150 MB" reads)
MIB = 1024 * 1024

# Targets of issue 6.
FIRST_LOAD_VS_FLOOR = 1.3
RELOAD_VS_XMLLINT = 3.0
DELTA_VS_XMLLINT = 4.0
RSS_LIMIT_MIB = 150
RSS_GROWTH = 0.20


def read(path, default=None):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return default


def parse_time(path):
    """wall seconds, peak RSS (KiB), user s, sys s, exit status from a `/usr/bin/time -v` report."""
    text = read(path)
    if text is None:
        return None
    out = {}
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", text)
    if m:
        parts = [float(p) for p in m.group(1).split(":")]
        secs = 0.0
        for p in parts:
            secs = secs * 60 + p
        out["wall"] = secs
    for key, label in (("rss_kb", "Maximum resident set size \\(kbytes\\)"), ("user", "User time \\(seconds\\)"),
                       ("sys", "System time \\(seconds\\)"), ("exit", "Exit status")):
        m = re.search(label + r": (\S+)", text)
        if m:
            out[key] = float(m.group(1))
    m = re.search(r"Command exited with non-zero status (\d+)", text)
    if m:
        out["exit"] = float(m.group(1))
    return out if "wall" in out else None


def load1(path):
    """The 1-minute load average from an `uptime` line."""
    text = read(path, "")
    m = re.search(r"load average: ([\d.]+), ([\d.]+), ([\d.]+)", text)
    return m.group(1) if m else "?"


def measurement(d, name):
    """One measurement NAME in directory d: its time report, load, summary JSON (if any)."""
    t = parse_time(os.path.join(d, name + ".time"))
    if t is None:
        return None
    t["name"] = name
    t["load"] = load1(os.path.join(d, name + ".load"))
    s = read(os.path.join(d, name + ".summary.json"))
    if s:
        try:
            summary = json.loads(s)
            if isinstance(summary, list):       # several inputs: one summary each (bench/run passes one)
                summary = summary[-1] if summary else {}
            t["summary"] = summary
        except json.JSONDecodeError:
            pass
    pgcpu = read(os.path.join(d, name + ".pgcpu"))
    if pgcpu and pgcpu.strip():
        t["pgcpu"] = float(pgcpu)
    rc = read(os.path.join(d, name + ".rc"))
    if rc is not None:
        t["exit"] = float(rc.strip() or 0)
    return t


def best(d, base, repeat_max=20):
    """The best (lowest wall) of NAME.1, NAME.2, ... that exited 0, and how many there were."""
    found = []
    for i in range(1, repeat_max + 1):
        m = measurement(d, f"{base}.{i}")
        if m is None:
            break
        found.append(m)
    ok = [m for m in found if m.get("exit", 0) == 0]
    pool = ok or found
    if not pool:
        return None, 0
    return min(pool, key=lambda m: m["wall"]), len(found)


def fmt_s(x):
    if x is None:
        return "–"
    return f"{x:.2f}" if x < 100 else f"{x:.0f}"


def fmt_rate(n, secs):
    if not n or not secs:
        return "–"
    r = n / secs
    return f"{r:,.0f}"


def rss(m):
    return m["rss_kb"] / 1024 if m and "rss_kb" in m else None


def rows_written(s):
    if not s:
        return "–"
    return (f"{s.get('inserted', 0):,} / {s.get('updated', 0):,} / {s.get('unchanged', 0):,} / "
            f"{s.get('withdrawn', 0):,}")


def one_line(prefix):
    d, name = os.path.dirname(prefix), os.path.basename(prefix)
    m = measurement(d, name)
    if m is None:
        return "no measurement"
    s = m.get("summary") or {}
    return (f"{m['wall']:.2f} s wall, peak RSS {rss(m):.0f} MiB, status {s.get('status', '?')}, "
            f"read {s.get('read', '?')}, inserted/updated/unchanged/withdrawn {rows_written(s)}")


def psql_timings(path):
    """{marker: (ms, command tag)} from a psql session whose steps are introduced by `\\echo @marker`."""
    out = {}
    marker = None
    tag = None
    for line in (read(path, "") or "").splitlines():
        if line.startswith("@"):
            marker, tag = line[1:].strip(), None
            continue
        if marker is None:
            continue
        if re.match(r"^(INSERT|COPY|UPDATE) ", line):
            tag = line.strip()
        m = re.match(r"^Time: ([\d.]+) ms", line)
        if m:
            out[marker] = (float(m.group(1)) / 1000, tag)
            marker = None
    return out


def slow_statements(path, limit=8):
    """(ms, first line of the statement) for the slowest logged statements, and ERROR lines, of one run."""
    text = read(path, "") or ""
    stmts, errors = [], []
    for m in re.finditer(r"LOG:  duration: ([\d.]+) ms  (?:statement|execute [^:]*|parse [^:]*|bind [^:]*): "
                         r"(.*(?:\n\t.*)*)", text):
        sql = " ".join(m.group(2).split())
        stmts.append((float(m.group(1)), sql))
    for m in re.finditer(r"ERROR:  (.*)", text):
        errors.append(m.group(1).strip())
    stmts.sort(key=lambda x: -x[0])
    return stmts[:limit], errors


def plans(path, limit=3, lines=40):
    text = read(path, "") or ""
    found = []
    for m in re.finditer(r"LOG:  duration: ([\d.]+) ms  plan:\n((?:\t.*\n?)*)", text):
        body = m.group(2).splitlines()
        found.append((float(m.group(1)), "\n".join(l[1:] if l.startswith("\t") else l for l in body[:lines])))
    found.sort(key=lambda x: -x[0])
    return found[:limit]


def verdict(ok):
    return "**PASS**" if ok else "**FAIL**"


def size_label(n):
    return f"{n // 1_000_000}M" if n % 1_000_000 == 0 else (f"{n // 1000}k" if n % 1000 == 0 else str(n))


def report(run_dir):
    lines = []
    emit = lines.append
    machine = {}
    for line in (read(os.path.join(run_dir, "machine.txt"), "") or "").splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            machine[k] = v
    commit = (read(os.path.join(run_dir, "commit"), "?") or "?").strip()
    build = (read(os.path.join(run_dir, "build.txt"), "") or "").strip()
    sizes = sorted(int(e) for e in os.listdir(run_dir) if e.isdigit() and os.path.isdir(os.path.join(run_dir, e)))

    emit(f"# mlsfeed benchmark, {machine.get('date', '?')}")
    emit("")
    emit(f"Commit `{commit[:12]}`; {build}. Raw outputs: `{os.path.relpath(run_dir)}`.")
    emit("")
    emit("Feeds: `mlsfeed fixtures generate --format triples --shape header --listings N --seed 42` and the next "
         "night's `--delta-of ... --changed 2% --new 0.5% --gone 0.5% --seed 43` (default dirt). "
         "Best of the repeated runs where marked ×k; the first load and the delta run once. "
         "*listings/s* = records read (floors: rows) per wall second; *rows* = inserted / updated / unchanged / "
         "withdrawn from `--summary-json`; *load* = 1-minute load average when the step started (2 cores).")
    emit("")

    rss_by_size = {}
    all_fail = []
    for n in sizes:
        d = os.path.join(run_dir, str(n))
        feed_bytes = int((read(os.path.join(d, "feed.bytes"), "0") or "0").strip() or 0)
        delta_bytes = int((read(os.path.join(d, "delta.bytes"), "0") or "0").strip() or 0)
        truth = {}
        tpath = os.path.join(d, "..", "..", "..", "data", f"{n}.truth.json")
        first = measurement(d, "first-load")
        s_first = (first or {}).get("summary") or {}
        records = s_first.get("read")
        gen = measurement(d, "generate")
        gen_out = (read(os.path.join(d, "generate.out"), "") or "").strip()
        m = re.search(r"\((\d+) records, (\d+) unique valid listings\)", gen_out)
        if m:
            truth = {"records": int(m.group(1)), "unique_valid": int(m.group(2))}
        records = records or truth.get("records")
        unique = truth.get("unique_valid") or s_first.get("inserted")
        dm = re.search(r"\((\d+) records", (read(os.path.join(d, "generate-delta.out"), "") or ""))
        delta_records = int(dm.group(1)) if dm else None

        emit(f"## {size_label(n)} listings ({n:,}): feed {feed_bytes / MB:,.0f} MB, {records or '?':,} records, "
             f"{unique or '?':,} unique valid" if isinstance(records, int) and isinstance(unique, int)
             else f"## {size_label(n)} listings ({n:,}): feed {feed_bytes / MB:,.0f} MB")
        emit("")
        if gen:
            emit(f"Generated in {gen['wall']:.1f} s (feed) and "
                 f"{(measurement(d, 'generate-delta') or {}).get('wall', 0):.1f} s (delta, {delta_bytes / MB:,.0f} MB).")
            emit("")
        emit("| step | wall s | listings/s | MB/s | peak RSS MiB | rows ins / upd / unch / wdr | load | notes |")
        emit("|---|---:|---:|---:|---:|---|---:|---|")

        def row(step, m, count=None, nbytes=None, rows="–", notes="", wall=None):
            if m is None and wall is None:
                emit(f"| {step} | – | – | – | – | {rows} | – | {notes or 'not measured'} |")
                return
            w = wall if wall is not None else m["wall"]
            mbps = f"{nbytes / MB / w:,.0f}" if nbytes and w else "–"
            r = rss(m)
            emit(f"| {step} | {fmt_s(w)} | {fmt_rate(count, w)} | {mbps} | {f'{r:.0f}' if r else '–'} | {rows} | "
                 f"{m['load'] if m else '–'} | {notes} |")

        xml, kx = best(d, "xmllint")
        row(f"parse floor: `xmllint --stream --noout` ×{kx}", xml, records, feed_bytes)
        bp, kb = best(d, "bench-parse")
        bp_note = ""
        if bp:
            bp_out = " ".join((read(os.path.join(d, bp["name"] + ".out"), "") or "").split())
            bp_note = f"prints: {bp_out[:90]}"
        row(f"parse stage alone: `mlsfeed bench-parse` ×{kb}", bp, records, feed_bytes, notes=bp_note)

        fc, kc = best(d, "floor-copy")
        fi, _ = best(d, "floor-index")
        # The floor is the best copy + index pass (each pass: empty PK-only table, \copy, then the indexes).
        floor_total = None
        passes = []
        for i in range(1, 21):
            c, x = measurement(d, f"floor-copy.{i}"), measurement(d, f"floor-index.{i}")
            if c is None or x is None:
                break
            passes.append(c["wall"] + x["wall"])
        if passes:
            floor_total = min(passes)
        nidx = len([l for l in (read(os.path.join(d, "floor-indexes.sql"), "") or "").splitlines() if l.strip()])
        rows_bytes = int((read(os.path.join(d, "rows.bytes"), "0") or "0").strip() or 0)
        def srv(m):
            return f"server CPU {m['pgcpu']:.1f} s" if m and "pgcpu" in m else ""
        row(f"initial-load floor: `\\copy` into a PK-only table ×{kc}", fc, unique, rows_bytes,
            notes=f"{rows_bytes / MB:,.0f} MB of COPY text; {srv(fc)}")
        row(f"initial-load floor: build the {nidx} search indexes ×{kc}", fi, unique, notes=srv(fi))
        row("**initial-load floor = copy + indexes** (best pass)", fc, unique, wall=floor_total,
            notes="psql wall times")
        rf = psql_timings(os.path.join(d, "reload-floor.out"))
        rf_m = measurement(d, "reload-floor")
        stage_copy = rf.get("stage-copy")
        ups = [v for k, v in rf.items() if k.startswith("upsert.")]
        nex = [v for k, v in rf.items() if k.startswith("notexists.")]
        reload_floor = None
        if stage_copy:
            row("reload floor: `\\copy` into a temp staging table", rf_m, unique, rows_bytes, wall=stage_copy[0],
                notes="psql \\timing")
        for label, vals in (("`ON CONFLICT ... DO UPDATE ... WHERE hash IS DISTINCT`", ups),
                            ("`NOT EXISTS (same hash)` + ON CONFLICT", nex)):
            if vals:
                b = min(vals, key=lambda v: v[0])
                reload_floor = b[0] if reload_floor is None else min(reload_floor, b[0])
                row(f"reload floor: no-op merge, {label} ×{len(vals)}", rf_m, unique, wall=b[0],
                    notes=f"`{b[1]}` (psql \\timing)")

        mruns = {}
        mruns["first"] = first
        mruns["rerun"], kr = best(d, "rerun")
        mruns["reload"], kf = best(d, "reload")
        mruns["delta"] = measurement(d, "delta")

        def mrow(step, m, nbytes):
            if m is None:
                row(step, None)
                return
            s = m.get("summary") or {}
            notes = f"status {s.get('status', '?')}"
            if "user" in m and "sys" in m:
                notes += f"; mlsfeed CPU {m['user'] + m['sys']:.1f} s"
            if "pgcpu" in m:
                notes += f"; server CPU {m['pgcpu']:.1f} s"
            if m.get("exit", 0):
                notes += f", exit {int(m['exit'])}" + (" (timeout)" if int(m["exit"]) == 124 else "")
            if s.get("error"):
                notes += f": {str(s['error'])[:80]}"
            row(step, m, s.get("read"), nbytes, rows_written(s), notes)

        mrow("**mlsfeed first load** (empty database)", first, feed_bytes)
        mrow(f"mlsfeed identical rerun, no `--force` ×{kr}", mruns["rerun"], feed_bytes)
        mrow(f"**mlsfeed same dump `--force`** ×{kf}", mruns["reload"], feed_bytes)
        mrow("**mlsfeed next night's delta** (full)", mruns["delta"], delta_bytes)
        emit("")

        # Targets
        emit("| target (issue 6) | mlsfeed s | floor s | ratio | limit | result |")
        emit("|---|---:|---:|---:|---:|---|")
        xw = xml["wall"] if xml else None

        def target(label, m, floor, limit, extra_ok=True, extra_note=""):
            if m is None or floor is None or m.get("exit", 0):
                emit(f"| {label} | {fmt_s(m['wall']) if m else '–'} | {fmt_s(floor)} | – | {limit}× | "
                     f"**FAIL** (not measured or run failed) |")
                all_fail.append(f"{size_label(n)}: {label}")
                return
            ratio = m["wall"] / floor
            ok = ratio <= limit and extra_ok
            if not ok:
                all_fail.append(f"{size_label(n)}: {label}")
            emit(f"| {label} | {fmt_s(m['wall'])} | {fmt_s(floor)} | {ratio:.2f}× | {limit}× | {verdict(ok)}"
                 f"{extra_note} |")

        target("first load ≤ 1.3× initial-load floor", first, floor_total, FIRST_LOAD_VS_FLOOR)
        rl = mruns["reload"]
        s_rl = (rl or {}).get("summary") or {}
        written = s_rl.get("inserted", 0) + s_rl.get("updated", 0) + s_rl.get("withdrawn", 0)
        target("unchanged reload (`--force`) ≤ 3× xmllint, 0 rows written", rl, xw, RELOAD_VS_XMLLINT,
               extra_ok=(written == 0), extra_note=f" ({written} rows written)")
        target("delta (full mode) ≤ 4× xmllint", mruns["delta"], xw, DELTA_VS_XMLLINT)
        peak = [rss(m) for m in mruns.values() if m and rss(m)]
        if peak:
            top = max(peak)
            rss_by_size[n] = top
            ok = top < RSS_LIMIT_MIB
            stated = "" if n == 1_000_000 else " (stated for 1M)"
            if not ok and n == 1_000_000:
                all_fail.append(f"{size_label(n)}: peak RSS < 150 MB")
            emit(f"| peak RSS of the mlsfeed runs < 150 MB{stated} | {top:.0f} MiB | – | – | 150 MiB | "
                 f"{verdict(ok)} |")
        if reload_floor is not None and rl:
            emit(f"| (info) unchanged reload vs reload floor (no-op merge) | {fmt_s(rl['wall'])} | "
                 f"{fmt_s(reload_floor)} | {rl['wall'] / reload_floor:.1f}× | – | – |")
        if bp and xw:
            emit(f"| (info) parse stage alone vs xmllint | {fmt_s(bp['wall'])} | {fmt_s(xw)} | "
                 f"{bp['wall'] / xw:.2f}× | – | – |")
        emit("")

        # Checks against the truth
        checks = []
        for line in (read(os.path.join(d, "checks.jsonl"), "") or "").splitlines():
            try:
                checks.append(json.loads(line))
            except json.JSONDecodeError:
                pass
        if checks:
            emit("Checks against the truth files (`N.truth.json`, `N-delta.truth.json`) and `listings`:")
            emit("")
            emit("| run | check | expected | got | result |")
            emit("|---|---|---:|---:|---|")
            for c in checks:
                emit(f"| {c['phase']} | {c['check']} | {c['expected']} | {c['actual']} | {verdict(c['ok'])} |")
                if not c["ok"]:
                    all_fail.append(f"{size_label(n)}: check {c['phase']}: {c['check']}")
            emit("")

        # Stage busy seconds
        stage_rows = [(lbl, m) for lbl, m in (("first load", first), ("same dump --force", mruns["reload"]),
                                               ("delta", mruns["delta"])) if m and m.get("summary")]
        names = []
        for _, m in stage_rows:
            for st in m["summary"].get("stages", []):
                if st.get("stage") not in names:
                    names.append(st.get("stage"))
        if stage_rows and names:
            emit("Per-stage busy seconds (`stages` in the summary JSON; stages overlap, the load commit/merge "
                 "runs after them: *after stages* ≈ run seconds − the longest stage). Wall-clock busy times, so "
                 "they include time descheduled on a loaded machine; parse's also includes blocking on its full "
                 "output queue (backpressure), so compare it with `bench-parse` above; load's includes waiting "
                 "for the server during COPY:")
            emit("")
            emit("| run | " + " | ".join(names) + " | run s (summary) | after stages ≈ | wall s |")
            emit("|---|" + "---:|" * (len(names) + 3))
            for lbl, m in stage_rows:
                st = {x.get("stage"): x.get("seconds") for x in m["summary"].get("stages", [])}
                secs = m["summary"].get("seconds")
                longest = max([v for v in st.values() if isinstance(v, (int, float))] or [0])
                after = secs - longest if isinstance(secs, (int, float)) else None
                emit(f"| {lbl} | " + " | ".join(fmt_s(st.get(k)) for k in names)
                     + f" | {fmt_s(secs)} | {fmt_s(after)} | {fmt_s(m['wall'])} |")
            emit("")

        # Slow SQL
        slow_any = False
        for lbl, name in (("first load", "first-load"), ("same dump --force", (mruns["reload"] or {}).get("name")),
                          ("delta", "delta")):
            if not name:
                continue
            stmts, errors = slow_statements(os.path.join(d, name + ".pglog"))
            if not stmts and not errors:
                continue
            if not slow_any:
                emit("Server-side statements over 1 s during the mlsfeed runs (`log_min_duration_statement`):")
                emit("")
                emit("| run | ms | statement (start) |")
                emit("|---|---:|---|")
                slow_any = True
            for ms, sql in stmts:
                emit(f"| {lbl} | {ms:,.0f} | `{sql[:140].replace('|', '/')}` |")
            for e in sorted(set(errors)):
                emit(f"| {lbl} | ERROR | {e[:160].replace('|', '/')} |")
        if slow_any:
            emit("")
        plan_list = []
        for name in ("first-load", (mruns["reload"] or {}).get("name"), "delta"):
            if name:
                plan_list += [(name, ms, p) for ms, p in plans(os.path.join(d, name + ".pglog"))]
        if plan_list:
            emit("<details><summary>auto_explain plans of statements over 5 s</summary>")
            emit("")
            for name, ms, p in sorted(plan_list, key=lambda x: -x[1])[:4]:
                emit(f"{name}, {ms:,.0f} ms:")
                emit("```")
                emit(p)
                emit("```")
            emit("</details>")
            emit("")

    # Across sizes
    if len(rss_by_size) >= 2:
        small, large = min(rss_by_size), max(rss_by_size)
        growth = rss_by_size[large] / rss_by_size[small] - 1
        ok = growth <= RSS_GROWTH
        if not ok:
            all_fail.append("peak RSS growth")
        emit(f"Peak RSS at {size_label(large)} within 20% of {size_label(small)}: {rss_by_size[large]:.0f} MiB vs "
             f"{rss_by_size[small]:.0f} MiB ({growth * 100:+.0f}%): {verdict(ok)}")
        emit("")

    emit("## Summary")
    emit("")
    if all_fail:
        emit("Missed targets or failed checks:")
        emit("")
        for f in all_fail:
            emit(f"- {f}")
    else:
        emit("All targets met and all checks passed.")
    emit("")
    emit("## Machine")
    emit("")
    emit(f"- {machine.get('nproc', '?')} CPUs: {machine.get('cpu', '?')}; memory {machine.get('memory', '?')}; "
         f"{machine.get('kernel', '?')}")
    emit(f"- load average at the end: {machine.get('load', '?')} (other builds share this machine)")
    emit(f"- {machine.get('postgres', '?')}; shared_buffers=512MB, max_wal_size=4GB, other settings default; "
         f"{machine.get('swift', '?')}; {machine.get('xmllint', '?')}")
    emit(f"- date: {machine.get('date', '?')}")
    return "\n".join(lines) + "\n"


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
