#!/usr/bin/env bash
# Parse-only benchmark (issue 3): the triples reader vs `xmllint --stream --noout` on the same file, same run.
#
#   bench/parse.sh [SIZE_MB ...]      default: 200 (files are generated once into bench/data/, git-ignored)
#
# Env: MLSFEED_PACKAGE_PATH (default: this repository), MLSFEED_SCRATCH (default: .build-xml),
#      RUNS (best of N, default 3).
# Prints, best of RUNS interleaved runs: wall-clock MiB/s of both and the ratio, CPU seconds (user + sys) of both
# and the ratio, and peak RSS of both (GNU time).
# Uses `mlsfeed bench-parse FILE` when the CLI has it, else the release-built ParseBenchmarkTests
# (skipped unless MLSFEED_BENCH_FILE is set). Both call `parseOnly` (Sources/MLSFeed/Parse).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
package="${MLSFEED_PACKAGE_PATH:-$repo}"
scratch="${MLSFEED_SCRATCH:-$package/.build-xml}"
runs="${RUNS:-3}"
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(200)

command -v xmllint >/dev/null || { echo "xmllint missing: apt-get install -y libxml2-utils" >&2; exit 1; }
mkdir -p "$here/data"

echo "building (release) in $package ..." >&2
build=(swift build -c release --package-path "$package" --scratch-path "$scratch")
bin="$("${build[@]}" --show-bin-path)"
cli="" tests=""
if "${build[@]}" --product mlsfeed >&2 && "$bin/mlsfeed" bench-parse --help >/dev/null 2>&1; then
    cli="$bin/mlsfeed"
else
    "${build[@]}" --build-tests -Xswiftc -enable-testing >&2
    tests="$(ls -d "$bin"/*PackageTests.xctest | head -1)"
fi
timing="$(mktemp)"
trap 'rm -f "$timing"' EXIT

# best wall-clock seconds, peak RSS (KiB) and least CPU seconds (user + sys) of a command over $runs runs
measure() {
    local best="" rss=0 cpu="" wall kb user sys
    for _ in $(seq "$runs"); do
        /usr/bin/time -o "$timing" -f '%e %M %U %S' "$@" >/dev/null 2>&1
        read -r wall kb user sys < <(tail -1 "$timing")
        if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then best="$wall"; fi
        local used; used="$(awk "BEGIN{print $user + $sys}")"
        if [ -z "$cpu" ] || awk "BEGIN{exit !($used < $cpu)}"; then cpu="$used"; fi
        [ "$kb" -gt "$rss" ] && rss="$kb"
    done
    echo "$best $rss $cpu"
}

printf '%-20s %7s | %9s %9s %6s | %8s %8s %6s | %9s %9s\n' file MiB "xmllint" "reader" ratio \
    "xml CPU" "rdr CPU" ratio "xml RSS" "rdr RSS"
printf '%-20s %7s | %9s %9s %6s | %8s %8s %6s | %9s %9s\n' "" "" "MiB/s" "MiB/s" "" s s "" MB MB
for size in "${sizes[@]}"; do
    file="$here/data/triples-${size}mb.xml"
    [ -f "$file" ] || python3 "$here/parse_gen.py" "$file" "$size" >&2
    mib="$(awk "BEGIN{printf \"%.1f\", $(stat -c %s "$file") / 1048576}")"
    if [ -n "$cli" ]; then
        reader=("$cli" bench-parse "$file")
    else
        reader=(env "MLSFEED_BENCH_FILE=$file" "$tests" --testing-library swift-testing --filter ParseBenchmarkTests)
    fi
    # Interleaved, best of $runs each: the machine may be shared.
    xs="" rs="" xrss=0 rrss=0 xc="" rc=""
    for _ in $(seq "$runs"); do
        read -r a b c < <(runs=1 measure xmllint --stream --noout "$file")
        if [ -z "$xs" ] || awk "BEGIN{exit !($a < $xs)}"; then xs="$a"; fi
        if [ -z "$xc" ] || awk "BEGIN{exit !($c < $xc)}"; then xc="$c"; fi
        [ "$b" -gt "$xrss" ] && xrss="$b"
        read -r a b c < <(runs=1 measure "${reader[@]}")
        if [ -z "$rs" ] || awk "BEGIN{exit !($a < $rs)}"; then rs="$a"; fi
        if [ -z "$rc" ] || awk "BEGIN{exit !($c < $rc)}"; then rc="$c"; fi
        [ "$b" -gt "$rrss" ] && rrss="$b"
    done
    awk -v f="$(basename "$file")" -v m="$mib" -v xs="$xs" -v rs="$rs" -v xc="$xc" -v rc="$rc" \
        -v xr="$xrss" -v rr="$rrss" 'BEGIN{
        printf "%-20s %7.1f | %9.1f %9.1f %5.0f%% | %8.2f %8.2f %5.0f%% | %9.1f %9.1f\n",
            f, m, m/xs, m/rs, 100*xs/rs, xc, rc, 100*xc/rc, xr/1024, rr/1024 }'
done
