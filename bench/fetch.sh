#!/usr/bin/env bash
# Fetch benchmark (issue 7): the same triples feed read (and parsed) from a plain file, a .gz file, over HTTP from
# the loopback test server, and as a .gz over HTTP. Prints MiB/s and peak RSS (/usr/bin/time -v's "Maximum resident
# set size"), each RSS also as a share of the plain file's.
#
#   bench/fetch.sh [SIZE_MB]      default: 1000 (files are generated once into bench/data/, git-ignored)
#
# Env: MLSFEED_PACKAGE_PATH (default: this repository; e.g. a `git archive HEAD` snapshot while others edit),
#      MLSFEED_SCRATCH (default: PACKAGE/.build-fetch), PARSE=0 (fetch only, no parse), RUNS (best of N, default 1),
#      SHA_MB (SHA-256 speed test size, default 512).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
package="${MLSFEED_PACKAGE_PATH:-$repo}"
scratch="${MLSFEED_SCRATCH:-$package/.build-fetch}"
size="${1:-1000}"
runs="${RUNS:-1}"
parse="${PARSE:-1}"
sha_mb="${SHA_MB:-512}"
data="$here/data"
plain="$data/fetch-triples-${size}mb.xml"
gz="$plain.gz"
mkdir -p "$data"

echo "building (release) in $package ..." >&2
swift build -c release --package-path "$package" --scratch-path "$scratch" --build-tests -Xswiftc -enable-testing >&2
bin="$(swift build -c release --package-path "$package" --scratch-path "$scratch" --show-bin-path)"
tests="$(ls -d "$bin"/*PackageTests.xctest | head -1)"

[ -f "$plain" ] || python3 "$here/parse_gen.py" "$plain" "$size" >&2
[ -f "$gz" ] || { echo "gzip -6 $plain ..." >&2; gzip -6 -c "$plain" > "$gz.tmp" && mv "$gz.tmp" "$gz"; }

port_file="$(mktemp)"
timing="$(mktemp)"
python3 "$repo/Tests/MLSFeedTests/Fixtures/fetch/server.py" "$data" > "$port_file" &
server=$!
trap 'kill "$server" 2>/dev/null; rm -f "$port_file" "$timing"' EXIT
for _ in $(seq 50); do [ -s "$port_file" ] && break; sleep 0.1; done
port="$(head -1 "$port_file")"

# best wall-clock seconds, peak RSS (KiB) over $runs runs, and the benchmark's own line
measure() {
    local input="$1" best="" rss=0 out wall kb line=""
    for _ in $(seq "$runs"); do
        out="$(env MLSFEED_FETCH_BENCH_INPUT="$input" MLSFEED_FETCH_BENCH_PARSE="$parse" /usr/bin/time -v -o "$timing" \
            "$tests" --testing-library swift-testing --filter fetchThroughput 2>&1)"
        line="$(grep -o 'fetch[+a-z]*: .*' <<<"$out" | head -1)"
        [ -n "$line" ] || { echo "$out" >&2; exit 1; }
        wall="$(awk '/Elapsed \(wall clock\)/{n=split($NF,t,":"); s=0; for(i=1;i<=n;i++) s=s*60+t[i]; print s}' \
            "$timing")"
        kb="$(awk '/Maximum resident set size/{print $NF}' "$timing")"
        if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then best="$wall"; fi
        [ "$kb" -gt "$rss" ] && rss="$kb"
    done
    echo "$best $rss $line"
}

mib="$(awk "BEGIN{printf \"%.1f\", $(stat -c %s "$plain") / 1048576}")"
echo "feed: $plain ($mib MiB; .gz $(awk "BEGIN{printf \"%.1f\", $(stat -c %s "$gz") / 1048576}") MiB)," \
    "$([ "$parse" = 0 ] && echo "fetch only" || echo "fetch + triples parse")"
printf '%-14s %9s %9s %12s %10s\n' input seconds "MiB/s" "peak RSS MB" "vs plain"
base=""
for kind in plain gz http http-gz; do
    case "$kind" in
        plain) input="$plain" ;;
        gz) input="$gz" ;;
        http) input="http://127.0.0.1:$port/files/$(basename "$plain")" ;;
        http-gz) input="http://127.0.0.1:$port/files/$(basename "$gz")" ;;
    esac
    read -r secs rss line < <(measure "$input")
    [ -z "$base" ] && base="$rss"
    awk -v k="$kind" -v s="$secs" -v m="$mib" -v r="$rss" -v b="$base" 'BEGIN{
        printf "%-14s %9.2f %9.1f %12.1f %9.0f%%\n", k, s, m/s, r/1024, 100*r/b }'
    echo "    $line" >&2
done
MLSFEED_FETCH_BENCH_SHA="$sha_mb" "$tests" --testing-library swift-testing --filter sha256Throughput 2>&1 \
    | grep -o 'sha256: .*' || true
