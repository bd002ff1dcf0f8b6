#!/usr/bin/env python3
"""report.py RUN_DIR          the Markdown report of one bench/run run (printed on stdout)
   report.py --one PREFIX     one line about one measurement (PREFIX.time, PREFIX.out, PREFIX.summary.json)

RUN_DIR holds, per format and size, a directory FORMAT/N/ with the raw outputs bench/run wrote:
  NAME.time          `/usr/bin/time -v` report (wall clock, peak RSS, CPU)
  NAME.load          `uptime` at the start of the measurement
  NAME.pgcpu         the server's CPU seconds during the measurement
  NAME.summary.json  mlsfeed's --summary-json (mlsfeed runs); NAME.rc its exit status
  NAME.pglog         the server log lines written during the run (slow statements, auto_explain plans, errors)
  reload-floor.out   psql output of the reload-floor session (\\timing lines)
  checks.jsonl       check.py results
  feed.bytes, delta.bytes, rows.bytes, generate.out, generate-delta.out, pipeline
and machine.txt, commit, build.txt, pg-version at the top. The helpers below are shared with formats_report.py.
"""
import json
import os
import re
import statistics
import sys

MB = 1_000_000          # feed sizes and throughput in MB (10^6 bytes), RSS in MiB (as the "100 MB" reads)

# Targets of issue 18.
FIRST_LOAD_VS_FLOOR = 1.3
RELOAD_VS_PARSE_FLOOR = 2.5
DELTA_VS_PARSE_FLOOR = 3.0
PARSE_STAGE_SHARE = 0.70
RSS_LIMIT_MIB = 100
RSS_GROWTH = 0.20

# The parse floors' tools (the names of their measurements), as the tables name them.
FLOOR_TOOLS = {"xmllint": "`xmllint --stream --noout`", "python-json": "Python `json.loads` per line",
               "jq": "`jq empty`"}


def tool_label(m):
    """The parse floor tool of measurement `m` (named TOOL.I or TOOL-STEP.I), as the tables name it."""
    name = m["name"].rsplit(".", 1)[0]
    return next((label for tool, label in FLOOR_TOOLS.items() if name in (tool, f"{tool}-delta", f"{tool}-reload")),
                name)

FORMATS = {
    "triples": ("triples", "`--format triples --shape header`, `pipelines/sample.yaml`"),
    "rets-compact": ("RETS COMPACT", "`--format rets-compact --shape header`, `pipelines/sample.yaml` with "
                                     "`format: {type: rets-compact}`"),
    "syndication": ("nested XML: RETS Syndication", "`--format syndication --source listhub`, "
                                                    "`pipelines/syndication.yaml`"),
    "reso-json": ("RESO JSON", "`--format reso-json --jsonl --source actris` (JSON Lines), "
                               "`pipelines/reso-web-api.yaml` reading a file"),
}


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
        secs = 0.0
        for p in m.group(1).split(":"):
            secs = secs * 60 + float(p)
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
    m = re.search(r"load average: ([\d.]+), ([\d.]+), ([\d.]+)", read(path, "") or "")
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
            if isinstance(summary, list):       # several inputs: one summary each (the benches pass one)
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


def runs(d, base, repeat_max=100):
    """NAME.1, NAME.2, ... that were measured."""
    found = []
    for i in range(1, repeat_max + 1):
        m = measurement(d, f"{base}.{i}")
        if m is None:
            break
        found.append(m)
    return found


def median(d, base):
    """The median run (by wall time) of NAME.1, NAME.2, ... that exited 0, and how many there were; the run carries
    the range of their wall times as `spread` (min, max)."""
    found = runs(d, base)
    pool = [m for m in found if m.get("exit", 0) == 0] or found
    if not pool:
        return None, 0
    chosen = dict(median_item(pool, lambda m: m["wall"]))
    chosen["spread"] = [m["wall"] for m in pool]
    return chosen, len(found)


def median_item(items, wall):
    """The item whose wall time is the median of them all: the upper one of an even count, never the better of two."""
    middle = statistics.median_high([wall(item) for item in items])
    return next(item for item in items if wall(item) == middle)


def wall_range(walls):
    """`range A–B s` of several wall times, for the notes (empty when they do not differ)."""
    if not walls or min(walls) == max(walls):
        return ""
    return f"range {fmt_s(min(walls))}–{fmt_s(max(walls))} s"


def notes_of(*parts):
    """The non-empty parts of a notes cell, joined by semicolons."""
    return "; ".join(part for part in parts if part)


def median_or_once(d, base):
    """`median` of NAME.1, NAME.2, ...; a run directory of before they were repeated has NAME alone."""
    m, k = median(d, base)
    return (m, k) if m else (measurement(d, base), 1)


def spread(m):
    """The range of a repeated measurement's wall times, for the notes (empty for one run)."""
    return wall_range((m or {}).get("spread"))


def fmt_s(x):
    if x is None:
        return "–"
    return f"{x:.2f}" if x < 100 else f"{x:.0f}"


def fmt_rate(n, secs):
    return f"{n / secs:,.0f}" if n and secs else "–"


def rss(m):
    return m["rss_kb"] / 1024 if m and "rss_kb" in m else None


def cpu(m):
    return m["user"] + m["sys"] if m and "user" in m and "sys" in m else None


def rows_written(s):
    if not s:
        return "–"
    return (f"{s.get('inserted', 0):,} / {s.get('updated', 0):,} / {s.get('unchanged', 0):,} / "
            f"{s.get('withdrawn', 0):,}")


def one_line(prefix):
    """One line about one measurement: an mlsfeed run's counts, or the last line another command printed."""
    d, name = os.path.dirname(prefix), os.path.basename(prefix)
    m = measurement(d, name)
    if m is None:
        return "no measurement"
    text = f"{m['wall']:.2f} s wall, peak RSS {rss(m):.0f} MiB, load {m['load']}"
    s = m.get("summary")
    if s:
        return (text + f", status {s.get('status', '?')}, read {s.get('read', '?')}, "
                f"inserted/updated/unchanged/withdrawn {rows_written(s)}")
    last = (read(os.path.join(d, name + ".out"), "") or "").strip().splitlines()
    return text + (f" ({last[-1]})" if last else "")


def psql_timings(path):
    """{marker: (seconds, command tag)} from a psql session whose steps are introduced by `\\echo @marker`."""
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
        stmts.append((float(m.group(1)), " ".join(m.group(2).split())))
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


def number(d, name):
    return int((read(os.path.join(d, name), "0") or "0").strip() or 0)


def emit_stages(emit, rows):
    """The per-stage busy seconds of mlsfeed runs, given as (label, measurement) pairs."""
    rows = [(label, m) for label, m in rows if m and m.get("summary", {}).get("stages")]
    names = []
    for _, m in rows:
        for st in m["summary"]["stages"]:
            if st.get("stage") not in names:
                names.append(st.get("stage"))
    if not rows or not names:
        return
    emit("Per-stage busy seconds (`stages` in the summary JSON; stages overlap, the load commit/merge runs after "
         "them: *after stages* ≈ run seconds − the longest stage). Wall-clock busy times, so they include time "
         "descheduled on a loaded machine; parse's also includes blocking on its full output queue (backpressure), "
         "so compare it with the parse stage alone; load's includes waiting for the server during COPY:")
    emit("")
    emit("| run | " + " | ".join(names) + " | run s (summary) | after stages ≈ | wall s |")
    emit("|---|" + "---:|" * (len(names) + 3))
    for label, m in rows:
        st = {x.get("stage"): x.get("seconds") for x in m["summary"]["stages"]}
        secs = m["summary"].get("seconds")
        longest = max([v for v in st.values() if isinstance(v, (int, float))] or [0])
        after = secs - longest if isinstance(secs, (int, float)) else None
        emit(f"| {label} | " + " | ".join(fmt_s(st.get(k)) for k in names)
             + f" | {fmt_s(secs)} | {fmt_s(after)} | {fmt_s(m['wall'])} |")
    emit("")


def checks(d):
    found = []
    for line in (read(os.path.join(d, "checks.jsonl"), "") or "").splitlines():
        try:
            found.append(json.loads(line))
        except json.JSONDecodeError:
            pass
    return found


def emit_checks(emit, d):
    """How many checks against the truth files pass, the failures, and every check folded away. Returns failures."""
    found = checks(d)
    if not found:
        emit("Checks against the truth files: none recorded.")
        emit("")
        return []
    failed = [c for c in found if not c["ok"]]
    emit(f"Checks against the truth files: {len(found) - len(failed)} of {len(found)} pass"
         + ("." if not failed else ":"))
    for c in failed:
        emit(f"- FAIL {c['phase']}: {c['check']}: expected {c['expected']}, got {c['actual']}")
    emit("")
    emit("<details><summary>all checks</summary>")
    emit("")
    for c in found:
        emit(f"- {'PASS' if c['ok'] else 'FAIL'} {c['phase']}: {c['check']}: expected {c['expected']}, "
             f"got {c['actual']}")
    emit("")
    emit("</details>")
    emit("")
    return failed


def emit_slow_sql(emit, d, named_runs):
    """Statements over 1 s and the auto_explain plans over 5 s of mlsfeed runs, given as (label, name) pairs."""
    slow_any = False
    named_runs = [(label, name) for label, name in named_runs if name]
    for label, name in named_runs:
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
            emit(f"| {label} | {ms:,.0f} | `{sql[:140].replace('|', '/')}` |")
        for e in sorted(set(errors)):
            emit(f"| {label} | ERROR | {e[:160].replace('|', '/')} |")
    if slow_any:
        emit("")
    plan_list = []
    for _, name in named_runs:
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


class Size:
    """The measurements of one format at one size, and the figures the tables need."""

    def __init__(self, d, fmt, n):
        self.d, self.format, self.n = d, fmt, n
        self.feed_bytes, self.delta_bytes = number(d, "feed.bytes"), number(d, "delta.bytes")
        self.rows_bytes = number(d, "rows.bytes")
        self.first, self.k_first = median_or_once(d, "first-load")
        s_first = (self.first or {}).get("summary") or {}
        generated = read(os.path.join(d, "generate.out"), "") or ""
        m = re.search(r"\((\d+) records, (\d+) unique valid listings\)", generated)
        self.records = s_first.get("read") or (int(m.group(1)) if m else None)
        self.unique = (int(m.group(2)) if m else None) or s_first.get("inserted")
        m = re.search(r"\((\d+) records", read(os.path.join(d, "generate-delta.out"), "") or "")
        self.delta_records = int(m.group(1)) if m else None
        # parse floor: xmllint, or for JSON the faster of Python's json module and jq
        self.floor_runs = [(label, median(d, tool)) for tool, label in FLOOR_TOOLS.items()]
        self.floor_runs = [(label, b) for label, b in self.floor_runs if b[0]]
        self.parse_floor = min((b[0] for _, b in self.floor_runs), key=lambda m: m["wall"], default=None)
        self.parse_floor_label = next((label for label, b in self.floor_runs if b[0] is self.parse_floor), "–")
        # The delta's dump parsed beside each delta and each --force reload (earlier runs had none: their targets used
        # the parse floor above, measured on the first dump before the first loads).
        self.beside = {step: self.measured_beside(step) for step in ("delta", "reload")}
        self.bench_parse, self.k_parse = median(d, "bench-parse")
        self.json_parser, self.k_json = median(d, "json-parser")
        passes = []
        for i in range(1, 100):
            c, x = measurement(d, f"floor-copy.{i}"), measurement(d, f"floor-index.{i}")
            if c is None or x is None:
                break
            passes.append(c["wall"] + x["wall"])
        self.load_floor = statistics.median_high(passes) if passes else None
        self.floors_paired = os.path.exists(os.path.join(d, "floors-paired"))
        self.load_floor_passes = passes
        self.delta, self.k_delta = median_or_once(d, "delta")
        self.rerun, self.k_rerun = median(d, "rerun")
        self.reload, self.k_reload = median(d, "reload")
        self.vacuum_first, self.vacuum_delta = measurement(d, "vacuum-first"), measurement(d, "vacuum-delta")
        self.old_reload, self.old_delta = measurement(d, "old-reload"), measurement(d, "old-delta")
        self.mlsfeed_runs = [m for m in (self.first, self.delta, self.rerun, self.reload, self.old_reload,
                                         self.old_delta) if m]

    def measured_beside(self, step):
        """The parse floor of the delta's dump measured right before each run of `step` (NAME-STEP.1, ...): the
        faster tool's median run and how many there were, or (None, 0)."""
        found = [median(self.d, f"{tool}-{step}") for tool in FLOOR_TOOLS]
        found = [b for b in found if b[0]]
        return min(found, key=lambda b: b[0]["wall"], default=(None, 0))

    def floor_of(self, step):
        """The parse floor a run of `step` ('delta' or 'reload') is compared with: its own beside the runs when
        measured, else the first dump's."""
        m = self.beside[step][0] or self.parse_floor
        return m["wall"] if m else None

    def floor_name(self, step):
        """`floor_of(step)` as the targets name it: its tool on the run's own dump, or the first dump's floor."""
        m = self.beside[step][0]
        return f"{tool_label(m)} of its dump" if m else self.parse_floor_label

    def ratio(self, m, floor):
        return m["wall"] / floor if m and floor and not m.get("exit", 0) else None

    @property
    def peak_rss(self):
        values = [rss(m) for m in self.mlsfeed_runs if rss(m)]
        return max(values) if values else None

    @property
    def parse_share(self):
        """The parse stage's speed as a share of its floor's."""
        if not self.bench_parse or not self.parse_floor:
            return None
        return self.parse_floor["wall"] / self.bench_parse["wall"]


def summary_table(emit, sizes):
    emit("| format | listings | feed MB | parse floor s | parse stage s (speed vs floor) | COPY + index floor s | "
         "first load s (× floor) | `--force` reload s (× parse floor) | delta s (× parse floor) | peak RSS MiB |")
    emit("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")

    def times(m, ratio):
        if m is None:
            return "–"
        return f"{fmt_s(m['wall'])} ({ratio:.2f}×)" if ratio is not None else fmt_s(m["wall"])

    for z in sizes:
        share = z.parse_share
        pf = z.parse_floor
        emit(f"| {z.format} | {size_label(z.n)} | {z.feed_bytes / MB:,.0f} | "
             f"{fmt_s(pf['wall']) if pf else '–'} | "
             f"{fmt_s(z.bench_parse['wall']) if z.bench_parse else '–'}"
             f"{f' ({share:.0%})' if share is not None else ''} | {fmt_s(z.load_floor)} | "
             f"{times(z.first, z.ratio(z.first, z.load_floor))} | "
             f"{times(z.reload, z.ratio(z.reload, z.floor_of('reload')))} | "
             f"{times(z.delta, z.ratio(z.delta, z.floor_of('delta')))} | "
             f"{f'{z.peak_rss:.0f}' if z.peak_rss else '–'} |")
    emit("")


def size_section(emit, z, fails):
    d, n = z.d, z.n
    label = f"{z.format} {size_label(n)}"
    heading = f"### {size_label(n)} listings ({n:,}): feed {z.feed_bytes / MB:,.0f} MB"
    if isinstance(z.records, int) and isinstance(z.unique, int):
        heading += f", {z.records:,} records, {z.unique:,} unique valid"
    emit(heading)
    emit("")
    gen = measurement(d, "generate")
    if gen:
        emit(f"Generated in {gen['wall']:.1f} s (feed) and "
             f"{(measurement(d, 'generate-delta') or {}).get('wall', 0):.1f} s (delta, {z.delta_bytes / MB:,.0f} MB).")
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

    def srv(m):
        return f"server CPU {m['pgcpu']:.1f} s" if m and "pgcpu" in m else ""

    def printed(m):
        return " ".join((read(os.path.join(d, m["name"] + ".out"), "") or "").split())[:90] if m else ""

    for flabel, (m, k) in z.floor_runs:
        mark = " (**the parse floor**)" if m is z.parse_floor and len(z.floor_runs) > 1 else ""
        row(f"parse floor: {flabel} ×{k}{mark}", m, z.records, z.feed_bytes,
            notes=notes_of(f"CPU {fmt_s(cpu(m))} s", spread(m)))
    if z.json_parser:
        row(f"JSON parser alone: `mlsfeed bench-parse --input-format reso-json` ×{z.k_json}", z.json_parser, z.records,
            z.feed_bytes, notes=notes_of(spread(z.json_parser), f"prints: {printed(z.json_parser)}"))
    row(f"parse stage alone: `mlsfeed bench-parse --pipeline` ×{z.k_parse}", z.bench_parse, z.records,
        z.feed_bytes, notes=notes_of(f"CPU {fmt_s(cpu(z.bench_parse))} s", spread(z.bench_parse),
                                     f"prints: {printed(z.bench_parse)}"))

    fc, kc = median(d, "floor-copy")
    fi, _ = median(d, "floor-index")
    nidx = len([l for l in (read(os.path.join(d, "floor-indexes.sql"), "") or "").splitlines() if l.strip()])
    row(f"initial-load floor: `\\copy` into a PK-only table ×{kc}", fc, z.unique, z.rows_bytes,
        notes=notes_of(f"{z.rows_bytes / MB:,.0f} MB of COPY text", srv(fc), spread(fc)))
    row(f"initial-load floor: build the {nidx} search indexes ×{kc}", fi, z.unique,
        notes=notes_of(srv(fi), spread(fi)))
    paired = " (each pass right after a first load)" if z.floors_paired else ""
    row(f"**initial-load floor = copy + indexes** (median pass of {kc}){paired}", fc, z.unique, wall=z.load_floor,
        notes=notes_of("psql wall times", wall_range(z.load_floor_passes)))
    for step, (m, k) in z.beside.items():
        if m:
            row(f"parse floor of the delta's dump: {tool_label(m)}, right before each {step} ×{k}", m,
                z.delta_records,
                z.delta_bytes, notes=notes_of(f"CPU {fmt_s(cpu(m))} s", spread(m)))
    rf = psql_timings(os.path.join(d, "reload-floor.out"))
    rf_m = measurement(d, "reload-floor")
    reload_floor = None
    if rf.get("stage-copy"):
        row("reload floor: `\\copy` into a temp staging table", rf_m, z.unique, z.rows_bytes,
            wall=rf["stage-copy"][0], notes="psql \\timing")
    for flabel, key in (("`ON CONFLICT ... DO UPDATE ... WHERE hash IS DISTINCT`", "upsert."),
                        ("`NOT EXISTS (same hash)` + ON CONFLICT", "notexists.")):
        vals = [v for k, v in rf.items() if k.startswith(key)]
        if vals:
            b = median_item(vals, lambda v: v[0])
            reload_floor = b[0] if reload_floor is None else min(reload_floor, b[0])
            row(f"reload floor: no-op merge, {flabel} ×{len(vals)}", rf_m, z.unique, wall=b[0],
                notes=notes_of(f"`{b[1]}` (psql \\timing)", wall_range([v[0] for v in vals])))

    def mrow(step, m, nbytes):
        if m is None:
            row(step, None)
            return
        s = m.get("summary") or {}
        notes = f"status {s.get('status', '?')}"
        if cpu(m) is not None:
            notes += f"; mlsfeed CPU {cpu(m):.1f} s"
        if "pgcpu" in m:
            notes += f"; server CPU {m['pgcpu']:.1f} s"
        if m.get("exit", 0):
            notes += f", exit {int(m['exit'])}" + (" (timeout)" if int(m["exit"]) == 124 else "")
        if s.get("error"):
            notes += f": {str(s['error'])[:80]}"
        row(step, m, s.get("read"), nbytes, rows_written(s), notes_of(notes, spread(m)))

    def vrow(step, m):
        row(step, m, notes=f"psql wall time; {srv(m)}" if m else "")

    mrow(f"**mlsfeed first load** (empty database) ×{z.k_first}", z.first, z.feed_bytes)
    vrow("`VACUUM ANALYZE` after the first load", z.vacuum_first)
    mrow(f"**mlsfeed next night's delta** (full mode, after the first load and `VACUUM ANALYZE`) ×{z.k_delta}",
         z.delta, z.delta_bytes)
    vrow("`VACUUM ANALYZE` after the delta", z.vacuum_delta)
    mrow(f"mlsfeed identical rerun of the delta's dump, no `--force` ×{z.k_rerun}", z.rerun, z.delta_bytes)
    mrow(f"**mlsfeed same dump `--force`** (the delta's dump again) ×{z.k_reload}", z.reload, z.delta_bytes)
    if z.old_reload or z.old_delta:
        mrow("old order, on a copy of the first-loaded database: same dump `--force` (the first dump)",
             z.old_reload, z.feed_bytes)
        mrow("old order: the delta after that reload", z.old_delta, z.delta_bytes)
    emit("")

    # Targets
    pf = z.parse_floor["wall"] if z.parse_floor else None
    pname = z.parse_floor_label
    emit("| target (issue 18) | mlsfeed s | floor s | ratio | limit | result |")
    emit("|---|---:|---:|---:|---:|---|")

    def target(tlabel, m, floor, limit, extra_ok=True, extra_note=""):
        ratio = z.ratio(m, floor)
        if ratio is None:
            emit(f"| {tlabel} | {fmt_s(m['wall']) if m else '–'} | {fmt_s(floor)} | – | {limit}× | "
                 f"**FAIL** (not measured or run failed) |")
            fails.append(f"{label}: {tlabel}")
            return
        ok = ratio <= limit and extra_ok
        if not ok:
            fails.append(f"{label}: {tlabel}")
        emit(f"| {tlabel} | {fmt_s(m['wall'])} | {fmt_s(floor)} | {ratio:.2f}× | {limit}× | {verdict(ok)}"
             f"{extra_note} |")

    target(f"first load ≤ {FIRST_LOAD_VS_FLOOR}× initial-load floor", z.first, z.load_floor, FIRST_LOAD_VS_FLOOR)
    s_rl = (z.reload or {}).get("summary") or {}
    written = s_rl.get("inserted", 0) + s_rl.get("updated", 0) + s_rl.get("withdrawn", 0)
    target(f"unchanged reload (`--force`) ≤ {RELOAD_VS_PARSE_FLOOR}× {z.floor_name('reload')}, 0 rows written",
           z.reload, z.floor_of("reload"), RELOAD_VS_PARSE_FLOOR, extra_ok=(written == 0),
           extra_note=f" ({written} rows written)")
    target(f"delta (full mode, after `VACUUM ANALYZE`) ≤ {DELTA_VS_PARSE_FLOOR}× {z.floor_name('delta')}", z.delta,
           z.floor_of("delta"), DELTA_VS_PARSE_FLOOR)
    share = z.parse_share
    if share is not None:
        ok = share >= PARSE_STAGE_SHARE
        if not ok:
            fails.append(f"{label}: parse stage ≥ {PARSE_STAGE_SHARE:.0%} of its floor's speed")
        emit(f"| parse stage alone ≥ {PARSE_STAGE_SHARE:.0%} of {pname}'s speed | {fmt_s(z.bench_parse['wall'])} | "
             f"{fmt_s(pf)} | {share:.0%} | ≥ {PARSE_STAGE_SHARE:.0%} | {verdict(ok)} |")
    if z.peak_rss:
        ok = z.peak_rss < RSS_LIMIT_MIB
        stated = "" if n == 1_000_000 else " (stated for 1M)"
        if not ok and n == 1_000_000:
            fails.append(f"{label}: peak RSS < {RSS_LIMIT_MIB} MB")
        emit(f"| peak RSS of the mlsfeed runs < {RSS_LIMIT_MIB} MB{stated} | {z.peak_rss:.0f} MiB | – | – | "
             f"{RSS_LIMIT_MIB} MiB | {verdict(ok)} |")
    if reload_floor is not None and z.reload:
        emit(f"| (info) unchanged reload vs reload floor (no-op merge) | {fmt_s(z.reload['wall'])} | "
             f"{fmt_s(reload_floor)} | {z.reload['wall'] / reload_floor:.1f}× | – | – |")
    if z.old_delta and pf:
        emit(f"| (info) delta in the old order (after a `--force` reload) vs {pname} | {fmt_s(z.old_delta['wall'])} | "
             f"{fmt_s(pf)} | {z.old_delta['wall'] / pf:.2f}× | – | – |")
    emit("")

    fails += [f"{label}: check {c['phase']}: {c['check']}" for c in emit_checks(emit, d)]
    emit_stages(emit, [("first load", z.first), ("delta", z.delta), ("same dump --force", z.reload),
                       ("old order: --force reload", z.old_reload), ("old order: delta", z.old_delta)])
    emit_slow_sql(emit, d, [("first load", (z.first or {}).get("name")), ("delta", (z.delta or {}).get("name")),
                            ("same dump --force", (z.reload or {}).get("name")),
                            ("old order: --force reload", "old-reload"), ("old order: delta", "old-delta")])


def run_info(run_dir):
    """The machine (machine.txt as a dict), the commit measured and how the binary was built, of one run."""
    machine = dict(line.split("=", 1) for line in (read(os.path.join(run_dir, "machine.txt"), "") or "").splitlines()
                   if "=" in line)
    commit = (read(os.path.join(run_dir, "commit"), "?") or "?").strip()
    build = (read(os.path.join(run_dir, "build.txt"), "") or "").strip()
    return machine, commit, "; ".join(build.splitlines())


def report(run_dir):
    lines = []
    emit = lines.append
    machine, commit, build = run_info(run_dir)
    present = [f for f in FORMATS if os.path.isdir(os.path.join(run_dir, f))]
    by_format = {}
    for fmt in present:
        fdir = os.path.join(run_dir, fmt)
        by_format[fmt] = [Size(os.path.join(fdir, e), fmt, int(e))
                          for e in sorted(os.listdir(fdir), key=lambda e: int(e) if e.isdigit() else 0)
                          if e.isdigit()]

    emit(f"# mlsfeed benchmark, {machine.get('date', '?')}")
    emit("")
    emit(f"Commit `{commit[:12]}`; {build}. Raw outputs: `{os.path.relpath(run_dir)}`.")
    emit("")
    emit("Feeds: `mlsfeed fixtures generate ... --listings N --seed 42` and the next night's `--delta-of ... "
         "--changed 2% --new 0.5% --gone 0.5% --seed 43` (default dirt). mlsfeed runs as a nightly operator meets "
         "them, in one database: first load, `VACUUM ANALYZE`, the delta (full mode), `VACUUM ANALYZE`, then the "
         "identical rerun and the `--force` reload of the delta's dump. The floors use the first load's rows in a "
         "table of their own. Where marked ×k, the median of k runs (the upper one of an even count), its range in "
         "the notes; each first load into a fresh database, each delta but the last on a copy of the first-loaded one. "
         "*listings/s* = records read (floors: rows) per wall second; *rows* = inserted / updated / unchanged / "
         "withdrawn from `--summary-json`; *load* = 1-minute load average when the step started (2 cores).")
    emit("")
    emit("## Every format")
    emit("")
    emit("Parse floor: `xmllint --stream --noout`, for RESO JSON the faster of Python's `json` module (per line) and "
         "`jq empty` on the same bytes; the speed of the parse stage alone is given as a share of its floor's. "
         "The delta and the `--force` reload are compared with the parse floor of the dump they read (the delta's), "
         "measured right before each of their runs where the run did so. "
         "COPY + index floor: `\\copy` of the first load's rows into a table with only the primary key, then "
         "building the search indexes; where marked, a pass right after each first load.")
    emit("")
    summary_table(emit, [z for fmt in present for z in by_format[fmt]])

    fails = []
    for fmt in present:
        title, how = FORMATS[fmt]
        emit(f"## {title}")
        emit("")
        emit(f"Feeds and pipeline: {how}.")
        emit("")
        for z in by_format[fmt]:
            size_section(emit, z, fails)
        sized = [z for z in by_format[fmt] if z.peak_rss]
        if len(sized) >= 2:
            small, large = sized[0], sized[-1]
            growth = large.peak_rss / small.peak_rss - 1
            ok = growth <= RSS_GROWTH
            if not ok:
                fails.append(f"{fmt}: peak RSS growth")
            emit(f"Peak RSS at {size_label(large.n)} within {RSS_GROWTH:.0%} of {size_label(small.n)}: "
                 f"{large.peak_rss:.0f} MiB vs {small.peak_rss:.0f} MiB ({growth * 100:+.0f}%): {verdict(ok)}")
            emit("")

    emit("## Summary")
    emit("")
    if fails:
        emit("Missed targets or failed checks:")
        emit("")
        for f in fails:
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
