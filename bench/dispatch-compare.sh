#!/usr/bin/env bash
# Dispatch latency of an earlier commit's jar side by side with the current one, on the captured
# Claude Code PreToolUse Bash payload with the default chain:
#   - bin/warden dispatch, own JVM       WARDEN_RESIDENT=off: one JVM per event, class-data archive
#   - bin/warden dispatch (resident)     the launcher hands the event to the resident server
# each for REF (its own launcher and jar, built in a temporary worktree outside this repository and
# removed on exit) and for the current jar (target/warden.jar, built first if missing). Runs
# alternate (REF own JVM, current own JVM, REF resident, current resident, ...) so all four see the
# same machine noise; prints p50, p95 and the current/REF ratios. Both must answer the same bytes.
#
#   bench/dispatch-compare.sh REF [RUNS]     default 40 runs each, e.g. bench/dispatch-compare.sh f9b9ad2 40
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
if [ $# -lt 1 ]; then
  echo "usage: bench/dispatch-compare.sh REF [RUNS]" >&2
  exit 2
fi
ref="$1"
runs="${2:-40}"
payload="$here/pretooluse-bash.json"
ref_home="$work/ref"
ref_sha="$(git -C "$home" rev-parse --verify "$ref^{commit}")"
cleanup() {
  WARDEN_CACHE_DIR="$work/cache-ref" "$ref_home/bin/warden" resident stop >/dev/null 2>&1 || true
  WARDEN_CACHE_DIR="$work/cache-cur" "$home/bin/warden" resident stop >/dev/null 2>&1 || true
  git -C "$home" worktree remove --force "$ref_home" >/dev/null 2>&1 || true
  git -C "$home" worktree prune >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

git -C "$home" worktree add --detach "$ref_home" "$ref_sha" >/dev/null 2>&1
echo "building $ref ($ref_sha) in $ref_home" >&2
(cd "$ref_home" && mvn -B -o -q -DskipTests package >"$work/ref-build.log" 2>&1) \
  || { echo "the build of $ref failed:" >&2; tail -20 "$work/ref-build.log" >&2; exit 1; }

mkdir -m 700 "$work/cache-ref" "$work/cache-cur"
cd "$work"
# run SIDE MODE: one dispatch of SIDE's launcher (ref or cur) in MODE (off or auto), payload on stdin.
run() {
  local launcher="$home/bin/warden"
  [ "$1" = ref ] && launcher="$ref_home/bin/warden"
  WARDEN_CACHE_DIR="$work/cache-$1" WARDEN_RESIDENT="$2" "$launcher" dispatch --host claude < "$payload"
}
# Warm-up per side: the class-data archive, the manifest cache, and the resident server.
for side in ref cur; do
  launcher="$home/bin/warden"
  [ "$side" = ref ] && launcher="$ref_home/bin/warden"
  WARDEN_CACHE_DIR="$work/cache-$side" "$launcher" train-archive >/dev/null
  run "$side" auto >/dev/null 2>&1 || true
  for _ in $(seq 300); do
    WARDEN_CACHE_DIR="$work/cache-$side" "$launcher" resident status >/dev/null 2>&1 && break
    sleep 0.1
  done
  WARDEN_CACHE_DIR="$work/cache-$side" "$launcher" resident status >/dev/null 2>&1 \
    || { echo "the $side resident server did not start" >&2; exit 1; }
  for _ in 1 2 3; do run "$side" auto >/dev/null 2>&1; run "$side" off >/dev/null 2>&1; done
done
for mode in off auto; do
  a="$(run ref "$mode" 2>/dev/null)"; b="$(run cur "$mode" 2>/dev/null)"
  [ "$a" = "$b" ] || { echo "answers differ (WARDEN_RESIDENT=$mode): $ref='$a' current='$b'" >&2; exit 1; }
done

ms() { # elapsed milliseconds (3 decimals) of `run "$@"`
  local start end
  start=$EPOCHREALTIME
  run "$@" >/dev/null 2>&1
  end=$EPOCHREALTIME
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", (e - s) * 1000 }'
}
: > ref-off.txt; : > cur-off.txt; : > ref-auto.txt; : > cur-auto.txt
for _ in $(seq "$runs"); do
  ms ref off >> ref-off.txt
  ms cur off >> cur-off.txt
  ms ref auto >> ref-auto.txt
  ms cur auto >> cur-auto.txt
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "payload: $(basename "$payload")  runs: $runs each, alternating  load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "REF: $ref ($(git -C "$home" log -1 --format='%h %s' "$ref_sha" | cut -c1-60))"
echo "current: $home/target/warden.jar ($(git -C "$home" log -1 --format=%h)$(git -C "$home" diff --quiet HEAD -- src 2>/dev/null || echo ', with uncommitted changes'))"
printf '%-34s %9s %9s %9s %9s %8s %8s\n' "" "REF p50" "REF p95" "cur p50" "cur p95" "p50 x" "p95 x"
for mode in off auto; do
  label="bin/warden dispatch, own JVM"
  [ "$mode" = auto ] && label="bin/warden dispatch (resident)"
  r50=$(pct ref-$mode.txt 0.50); r95=$(pct ref-$mode.txt 0.95)
  c50=$(pct cur-$mode.txt 0.50); c95=$(pct cur-$mode.txt 0.95)
  printf '%-34s %9s %9s %9s %9s %8s %8s\n' "$label" "$r50" "$r95" "$c50" "$c95" "$(ratio "$c50" "$r50")" "$(ratio "$c95" "$r95")"
done
echo "(ms; x = current / REF)"
