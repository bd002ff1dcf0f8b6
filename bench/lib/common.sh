# bench/lib/common.sh — helpers shared by bench/run, bench/formats and bench/search (sourced, not run).
#
# The sourcing script sets, before calling them:
#   bench_name   its name in messages (bench/run)
#   lib out      bench/lib and bench/out
#   run_dir      where raw outputs of this run go
#   pgdir        the throwaway cluster (data in $pgdir/data, socket in $pgdir); conn: its conninfo
#   pg_started   0 until pg_start succeeds
#   timeout_secs (optional) stop an `mlsfeed run` that takes longer (mlsfeed_run); 0 or unset: none
# and runs as root (the cluster runs as the postgres user via runuser). B is the mlsfeed binary (build_mlsfeed).

pgbin=/usr/lib/postgresql/15/bin

log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { echo "$bench_name: error: $*" >&2; exit 1; }

# quiet psql (no NOTICEs) that stops at the first error
psql_q() { PGOPTIONS='-c client_min_messages=warning' psql "$@" -X -q -v ON_ERROR_STOP=1; }

# pg_cpu: CPU seconds the running cluster has used so far (empty when it is not running)
pg_cpu() { [ "$pg_started" -eq 1 ] && python3 "$lib/pgcpu.py" "$pgdir/data" 2>/dev/null || true; }

# timed DIR NAME CMD...: runs CMD under /usr/bin/time -v; keeps NAME.time (time -v report), NAME.out, NAME.err,
# NAME.load (uptime at start) and NAME.pgcpu (server CPU seconds during CMD) in DIR. Returns CMD's exit status.
timed() {
    local dir="$1" name="$2"; shift 2
    uptime > "$dir/$name.load"
    local rc=0 before after
    before="$(pg_cpu)"
    /usr/bin/time -v -o "$dir/$name.time" "$@" > "$dir/$name.out" 2> "$dir/$name.err" || rc=$?
    after="$(pg_cpu)"
    if [ -n "$before" ] && [ -n "$after" ]; then
        awk -v a="$after" -v b="$before" 'BEGIN { printf "%.2f\n", a - b }' > "$dir/$name.pgcpu"
    fi
    return $rc
}

checkpoint() { psql_q "$conn" -c "CHECKPOINT" >/dev/null; }

# preflight_pg: the PostgreSQL 15 server binaries, psql and the postgres user are there, and we are root
preflight_pg() {
    [ "$(id -u)" -eq 0 ] || die "run as root (the throwaway cluster runs as the postgres user via runuser)"
    command -v psql >/dev/null || die "psql not found (apt-get install postgresql-client)"
    [ -x "$pgbin/initdb" ] && [ -x "$pgbin/pg_ctl" ] \
        || die "PostgreSQL 15 server binaries not in $pgbin (apt-get install postgresql-15)"
    id postgres >/dev/null 2>&1 || die "no postgres user (apt-get install postgresql creates it)"
}

# build_mlsfeed REPO BIN: sets B (the mlsfeed binary) and pipeline (pipelines/sample.yaml beside the sources it was
# built from). With BIN, uses that binary; else builds `mlsfeed` (release) from a snapshot of REPO's HEAD (git
# archive) in $out/src, scratch $out/build, so concurrent edits in the work tree can neither break nor skew it
# (unchanged files keep their mtime: the build is incremental). Writes $run_dir/build.txt and $run_dir/commit.
build_mlsfeed() {
    local repo="$1" bin="$2" commit
    commit="$(git -C "$repo" rev-parse HEAD)"
    if [ -n "$bin" ]; then
        B="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
        [ -x "$B" ] || die "--bin $bin is not executable"
        pipeline="$repo/pipelines/sample.yaml"
        echo "binary: $B (given with --bin; HEAD is $commit)" > "$run_dir/build.txt"
    else
        log "snapshot of HEAD $commit -> bench/out/src"
        rm -rf "$out/src.new"; mkdir -p "$out/src.new" "$out/src"
        git -C "$repo" archive HEAD | tar -x -C "$out/src.new"
        python3 "$lib/sync_tree.py" "$out/src.new" "$out/src"
        rm -rf "$out/src.new"
        log "scripts/build: release, static Swift runtime (scratch bench/out/build; log $run_dir/build.log)"
        "$out/src/scripts/build" --package-path "$out/src" --scratch-path "$out/build" > "$run_dir/build.log" 2>&1 \
            || { tail -30 "$run_dir/build.log" >&2; die "build failed, see $run_dir/build.log"; }
        B="$("$out/src/scripts/build" --package-path "$out/src" --scratch-path "$out/build" --show-bin-path)/mlsfeed"
        pipeline="$out/src/pipelines/sample.yaml"
        echo "binary: built from HEAD $commit ($(git -C "$repo" log -1 --format=%s "$commit"))" > "$run_dir/build.txt"
    fi
    [ -x "$B" ] || die "mlsfeed binary not found at $B"
    # The runtime's pages count in peak RSS: say whether it is linked in (scripts/build) or shared.
    if ldd "$B" 2>/dev/null | grep -q libswiftCore; then
        echo "Swift runtime: shared libraries" >> "$run_dir/build.txt"
    else
        echo "Swift runtime: linked in statically" >> "$run_dir/build.txt"
    fi
    [ -f "$pipeline" ] || die "pipeline not found: $pipeline"
    echo "$commit" > "$run_dir/commit"
}

# pg_start [CONF_LINE...]: a fresh cluster in $pgdir (initdb -E UTF8 --locale=C -A trust as the embedded cluster,
# unix socket in $pgdir, listen_addresses=''), shared_buffers=512MB and max_wal_size=4GB plus CONF_LINEs, started.
pg_start() {
    if [ -f "$pgdir/data/postmaster.pid" ]; then      # left running by an interrupted run
        runuser -u postgres -- "$pgbin/pg_ctl" -D "$pgdir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$pgdir"; mkdir -p "$pgdir"; chown postgres: "$pgdir"
    log "initdb + start PostgreSQL in $pgdir"
    runuser -u postgres -- "$pgbin/initdb" -D "$pgdir/data" -U postgres -A trust -E UTF8 --locale=C \
        > "$run_dir/initdb.log" 2>&1 || { cat "$run_dir/initdb.log" >&2; die "initdb failed"; }
    {
        echo ""
        echo "# $bench_name"
        echo "listen_addresses = ''"
        echo "unix_socket_directories = '$pgdir'"
        echo "shared_buffers = 512MB"
        echo "max_wal_size = 4GB"
        local line
        for line in "$@"; do echo "$line"; done
    } >> "$pgdir/data/postgresql.conf"
    runuser -u postgres -- "$pgbin/pg_ctl" -D "$pgdir/data" -l "$pgdir/server.log" -w start >/dev/null \
        || { tail -20 "$pgdir/server.log" >&2; die "PostgreSQL did not start"; }
    pg_started=1
    psql_q "host=$pgdir dbname=postgres user=postgres" -At -c "SELECT version()" > "$run_dir/pg-version"
}

# pg_stop: stops the cluster pg_start started (fast, else immediate)
pg_stop() {
    [ "$pg_started" -eq 1 ] || return 0
    log "stopping PostgreSQL"
    runuser -u postgres -- "$pgbin/pg_ctl" -D "$pgdir/data" -m fast -w stop >/dev/null 2>&1 \
        || runuser -u postgres -- "$pgbin/pg_ctl" -D "$pgdir/data" -m immediate -w stop >/dev/null 2>&1
    pg_started=0
}

# machine_info FILE: the machine, load and tool versions, as key=value lines
machine_info() {
    {
        echo "nproc=$(nproc)"
        echo "cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)"
        echo "memory=$(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
        echo "kernel=$(uname -sr)"
        echo "load=$(uptime | sed 's/.*load average: //')"
        echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
        echo "swift=$(swift --version 2>/dev/null | head -1 || echo '?')"
        echo "postgres=$(cut -d, -f1 "$run_dir/pg-version")"
        echo "xmllint=$(xmllint --version 2>&1 | head -1)"
    } > "$1"
}

# db_conn NAME: the conninfo of database NAME on the throwaway cluster
db_conn() { echo "host=$pgdir dbname=$1 user=postgres"; }

# fresh_db [NAME]: an empty database NAME (default bench), dropped first, with mlsfeed's schema (`db migrate`)
fresh_db() {
    local name="${1:-bench}"
    psql_q "$(db_conn postgres)" -c "DROP DATABASE IF EXISTS $name" -c "CREATE DATABASE $name" >/dev/null
    "$B" db migrate --database "$(db_conn "$name")" > "$run_dir/migrate.out" 2>&1 \
        || { cat "$run_dir/migrate.out" >&2; die "db migrate failed"; }
}

# feed_ext FORMAT: the file extension of FORMAT's generated feed
feed_ext() { if [ "$1" = reso-json ]; then echo jsonl; else echo xml; fi; }

# generate_feeds DIR FORMAT N FEED [DELTA]: `mlsfeed fixtures generate` of FORMAT (triples, rets-compact,
# syndication, reso-json as JSON Lines) with N listings, seed 42, default dirt, into FEED; given DELTA, also its next
# night (`--delta-of FEED --changed 2% --new 0.5% --gone 0.5%`, seed 43). The truth files go beside them (the path
# without its extension + .truth.json). Timed as DIR/generate and DIR/generate-delta; sizes in DIR/feed.bytes and
# DIR/delta.bytes.
generate_feeds() {
    local dir="$1" format="$2" n="$3" feed="$4" delta="${5:-}" args=()
    case "$format" in
        triples|rets-compact) args=(--format "$format" --shape header) ;;
        syndication) args=(--format syndication --source listhub) ;;
        reso-json) args=(--format reso-json --jsonl --source actris) ;;
        *) die "unknown format: $format" ;;
    esac
    log "generate $feed"
    timed "$dir" generate "$B" fixtures generate "${args[@]}" --listings "$n" --seed 42 --output "$feed" \
        || { cat "$dir/generate.err" >&2; die "fixtures generate failed"; }
    stat -c %s "$feed" > "$dir/feed.bytes"
    [ -n "$delta" ] || return 0
    log "generate $delta"
    timed "$dir" generate-delta "$B" fixtures generate --delta-of "$feed" --changed 2% --new 0.5% --gone 0.5% \
        --seed 43 --output "$delta" || { cat "$dir/generate-delta.err" >&2; die "fixtures generate --delta-of failed"; }
    stat -c %s "$delta" > "$dir/delta.bytes"
}

# measure DIR NAME CMD...: one timed command that must succeed (a parse floor or the parse stage alone)
measure() {
    local dir="$1" name="$2"; shift 2
    timed "$dir" "$name" "$@" || die "$name failed: $(head -3 "$dir/$name.err")"
    log "  $name: $(python3 "$lib/report.py" --one "$dir/$name")"
}

# mlsfeed_run DIR NAME PIPELINE CONNINFO INPUT [ARGS...]: one `mlsfeed run`, after a CHECKPOINT, timed, with its
# summary JSON (NAME.summary.json), exit status (NAME.rc) and the server log lines it caused (NAME.pglog).
mlsfeed_run() {
    local dir="$1" name="$2" pipe="$3" target="$4" input="$5"; shift 5
    checkpoint
    local from; from=$(stat -c %s "$pgdir/server.log" 2>/dev/null || echo 0)
    local prefix=()
    [ "${timeout_secs:-0}" -gt 0 ] && prefix=(timeout -s INT --kill-after=60 "$timeout_secs")
    local rc=0
    timed "$dir" "$name" "${prefix[@]}" "$B" run "$pipe" --input "$input" --database "$target" --no-progress \
        --summary-json "$dir/$name.summary.json" "$@" || rc=$?
    [ -f "$pgdir/server.log" ] && tail -c +"$((from + 1))" "$pgdir/server.log" > "$dir/$name.pglog"
    echo "$rc" > "$dir/$name.rc"
    if [ $rc -ne 0 ]; then
        log "  $name: mlsfeed exited $rc$([ $rc -eq 124 ] && echo ' (timeout)'); see $dir/$name.err"
        sed 's/^/    /' "$dir/$name.err" | head -5 >&2
    else
        log "  $name: $(python3 "$lib/report.py" --one "$dir/$name")"
    fi
    return $rc
}
