#!/usr/bin/env python3
"""check.py PHASE SUMMARY_JSON TRUTH_JSON CONNINFO OUT_JSONL

Checks one mlsfeed run of bench/run against the fixture generator's truth file and appends one JSON line per check
to OUT_JSONL: {"phase", "check", "expected", "actual", "ok"}. Prints them too.

PHASE is one of
  first   first load into an empty database (truth = N.truth.json)
  rerun   the same dump again without --force: change detection must skip it
  reload  the same dump again with --force: nothing written
  delta   the next night's dump in full mode (truth = N-delta.truth.json)
  replication  the changed and new listings of the next night only, incremental mode (truth = N-delta.truth.json;
          bench/formats adds `--base N.truth.json --batch replication.json`, the counts of lib/replication_batch.py)

The database side is read with psql (the loaded `listings` rows); the counts come from --summary-json.
"""
import json
import subprocess
import sys


def psql(conninfo: str, sql: str) -> list[str]:
    done = subprocess.run(["psql", conninfo, "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-f", "-"],
                          input=sql, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"check.py: psql failed: {done.stderr.strip()}")
    return [line for line in done.stdout.splitlines() if line != ""]


def lit(value: str) -> str:
    return "'" + str(value).replace("'", "''") + "'"


def id_array(ids) -> str:
    return "ARRAY[" + ",".join(lit(i) for i in ids) + "]::text[]" if ids else "ARRAY[]::text[]"


def main() -> int:
    phase, summary_path, truth_path, conninfo, out_path = sys.argv[1:6]
    extra = dict(zip(sys.argv[6::2], sys.argv[7::2]))
    with open(summary_path) as f:
        summary = json.load(f)
    if isinstance(summary, list):       # a run over several inputs writes one summary per input; bench/run has one
        summary = summary[-1] if summary else {}
    with open(truth_path) as f:
        truth = json.load(f)
    source = truth.get("source", "sdmls")
    results = []

    def check(name, expected, actual, ok=None):
        if ok is None:
            ok = expected == actual
        results.append({"phase": phase, "check": name, "expected": expected, "actual": actual, "ok": bool(ok)})

    def one(sql):
        rows = psql(conninfo, sql)
        return int(rows[-1]) if rows else None

    active_sql = f"SELECT count(*) FROM listings WHERE source = {lit(source)} AND off_market_at IS NULL;"
    rejected_ids = {r.get("mls_number") for r in truth.get("rejected", []) if r.get("mls_number")}

    def winners():
        """Each duplicated MLS number holds its winning version's list price."""
        pairs = [(d["mls_number"], d["winner_list_price_value"]) for d in truth.get("duplicated", [])
                 if d.get("mls_number") and d["mls_number"] not in rejected_ids
                 and d.get("winner_list_price_value") not in (None, "")]
        if not pairs:
            return
        ids = id_array([p[0] for p in pairs])
        prices = "ARRAY[" + ",".join(lit(p[1]) for p in pairs) + "]::text[]"
        wrong = one(f"""
            SELECT count(*) FROM unnest({ids}, {prices}) AS t(id, price)
            LEFT JOIN listings l ON l.source = {lit(source)} AND l.listing_id = t.id
            WHERE l.listing_id IS NULL OR l.list_price IS DISTINCT FROM t.price::numeric;""")
        check(f"duplicated MLS numbers hold the winner's price ({len(pairs)} numbers): wrong or missing", 0, wrong)

    status = summary.get("status")
    kind = phase.split(".")[0]          # rerun.2 -> rerun
    if kind == "first":
        check("status", "succeeded", status)
        check("read = truth records", truth["records"], summary.get("read"))
        check("rejected = truth rejects", truth["rejects"], summary.get("rejected"))
        check("duplicates = truth duplicates", truth["duplicates"], summary.get("duplicates"))
        check("inserted = truth unique valid", truth["unique_valid"], summary.get("inserted"))
        check("updated + withdrawn = 0", 0, summary.get("updated", 0) + summary.get("withdrawn", 0))
        check("active listings (off_market_at IS NULL) = truth unique valid", truth["unique_valid"], one(active_sql))
        rows = one(f"SELECT count(*) FROM listings WHERE source = {lit(source)};")
        check("listings rows = truth unique valid", truth["unique_valid"], rows)
        winners()
    elif kind == "rerun":
        check("status (change detection skips the identical dump)", "unchanged", status)
        check("rows written (inserted + updated + withdrawn)", 0,
              summary.get("inserted", 0) + summary.get("updated", 0) + summary.get("withdrawn", 0))
    elif kind == "reload":
        check("status", "succeeded", status)
        check("read = truth records", truth["records"], summary.get("read"))
        check("rows written (inserted + updated + withdrawn)", 0,
              summary.get("inserted", 0) + summary.get("updated", 0) + summary.get("withdrawn", 0))
        check("unchanged = truth unique valid", truth["unique_valid"], summary.get("unchanged"))
        check("active listings = truth unique valid", truth["unique_valid"], one(active_sql))
    elif kind == "delta":
        delta = truth["delta"]
        new, changed, gone = delta.get("new", []), delta.get("changed", []), delta.get("withdrawn", [])
        check("status", "succeeded", status)
        check("read = delta truth records", truth["records"], summary.get("read"))
        check("rejected = delta truth rejects", truth["rejects"], summary.get("rejected"))
        check("inserted = delta truth new", len(new), summary.get("inserted"))
        check("updated = delta truth changed", len(changed), summary.get("updated"))
        check("withdrawn = delta truth withdrawn (gone)", len(gone), summary.get("withdrawn"))
        check("active listings = delta truth unique valid", truth["unique_valid"], one(active_sql))
        check("gone listings are off market", len(gone), one(
            f"SELECT count(*) FROM listings WHERE source = {lit(source)} AND listing_id = ANY({id_array(gone)})"
            " AND off_market_at IS NOT NULL;"))
        check("new listings are active", len(new), one(
            f"SELECT count(*) FROM listings WHERE source = {lit(source)} AND listing_id = ANY({id_array(new)})"
            " AND off_market_at IS NULL;"))
        run_id = summary.get("run_id")
        if run_id is not None:
            check("changed listings have last_changed_run = delta run", len(changed), one(
                f"SELECT count(*) FROM listings WHERE source = {lit(source)}"
                f" AND listing_id = ANY({id_array(changed)}) AND last_changed_run = {int(run_id)};"))
        winners()
    elif kind == "replication":
        delta = truth["delta"]
        new, changed = delta.get("new", []), delta.get("changed", [])
        with open(extra["--base"]) as f:
            base = json.load(f)
        with open(extra["--batch"]) as f:
            batch = json.load(f)
        check("status", "succeeded", status)
        check("read = records of the replication batch", batch["records"], summary.get("read"))
        check("inserted = delta truth new", len(new), summary.get("inserted"))
        check("updated = delta truth changed", len(changed), summary.get("updated"))
        check("withdrawn = 0 (incremental)", 0, summary.get("withdrawn"))
        check("active listings = base unique valid + new", base["unique_valid"] + len(new), one(active_sql))
        check("new listings are active", len(new), one(
            f"SELECT count(*) FROM listings WHERE source = {lit(source)} AND listing_id = ANY({id_array(new)})"
            " AND off_market_at IS NULL;"))
        run_id = summary.get("run_id")
        if run_id is not None:
            check("changed listings have last_changed_run = replication run", len(changed), one(
                f"SELECT count(*) FROM listings WHERE source = {lit(source)}"
                f" AND listing_id = ANY({id_array(changed)}) AND last_changed_run = {int(run_id)};"))
    else:
        raise SystemExit(f"check.py: unknown phase {phase}")

    with open(out_path, "a") as f:
        for r in results:
            f.write(json.dumps(r) + "\n")
            print(f"  {'PASS' if r['ok'] else 'FAIL'}  {phase}: {r['check']}: expected {r['expected']}, "
                  f"got {r['actual']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
