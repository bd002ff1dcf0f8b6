#!/usr/bin/env bash
# Parse-only benchmark (issue 3): the triples reader vs `xmllint --stream --noout` on the same file, same run.
#
#   bench/parse.sh [SIZE_MB ...]      default: 200 (files are generated once into bench/data/, git-ignored)
#
# Env: MLSFEED_PACKAGE_PATH (default: this repository), MLSFEED_SCRATCH (default: .build-xml),
#      RUNS (best of N, default 3).
# Prints MiB/s of both, the ratio, and peak RSS (from /usr/bin/time -v) of both.
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

# best wall-clock seconds and peak RSS (KiB) of a command over $runs runs
measure() {
    local best="" rss=0 out wall kb
    for _ in $(seq "$runs"); do
        /usr/bin/time -o "$timing" -f '%e %M' "$@" >/dev/null 2>&1
        out="$(tail -1 "$timing")"
        wall="${out% *}"; kb="${out#* }"
        if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then best="$wall"; fi
        [ "$kb" -gt "$rss" ] && rss="$kb"
    done
    echo "$best $rss"
}

printf '%-28s %10s %12s %12s %8s %14s %14s\n' file MiB "xmllint MiB/s" "reader MiB/s" ratio "xmllint RSS MB" "reader RSS MB"
for size in "${sizes[@]}"; do
    file="$here/data/triples-${size}mb.xml"
    [ -f "$file" ] || python3 "$here/parse_gen.py" "$file" "$size" >&2
    mib="$(awk "BEGIN{printf \"%.1f\", $(stat -c %s "$file") / 1048576}")"
    read -r xs xrss < <(measure xmllint --stream --noout "$file")
    if [ -n "$cli" ]; then
        read -r rs rrss < <(measure "$cli" bench-parse "$file")
    else
        read -r rs rrss < <(measure env "MLSFEED_BENCH_FILE=$file" "$tests" --testing-library swift-testing \
            --filter ParseBenchmarkTests)
    fi
    awk -v f="$(basename "$file")" -v m="$mib" -v xs="$xs" -v rs="$rs" -v xr="$xrss" -v rr="$rrss" 'BEGIN{
        printf "%-28s %10.1f %12.1f %12.1f %7.0f%% %14.1f %14.1f\n", f, m, m/xs, m/rs, 100*xs/rs, xr/1024, rr/1024 }'
done
