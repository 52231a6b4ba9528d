#!/usr/bin/env bash
# Hook latency with the resident's live OpenTelemetry export on and off, side by side (issue 31):
#   - resident, live export off     bin/warden dispatch handing the event to a resident started
#                                   without WARDEN_OTLP_LIVE
#   - resident, live export on      the same to a second resident (its own WARDEN_CACHE_DIR) started
#                                   with WARDEN_OTLP_LIVE set to a local
#                                   OTLP/HTTP sink that accepts everything (bench/otlp-sink.py)
# on the captured Claude Code PreToolUse Bash payload (cwd pointed at a scratch project, so every
# event writes its decision line there and, on the "on" side, queues it for export), default chain.
# Runs alternate (off, on, off, on, ...) so both see the same machine noise; prints p50, p95 and
# the on/off ratios, then what the sink took and the on-side resident's export counts (warden doctor).
#
#   bench/live-export-latency.sh [RUNS]      default 200 runs each
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
runs="${1:-200}"
command -v python3 >/dev/null || { echo "live-export-latency: python3 is needed (the sink)" >&2; exit 2; }
cleanup() {
  WARDEN_CACHE_DIR="$work/cache-off" "$home/bin/warden" resident stop >/dev/null 2>&1 || true
  WARDEN_CACHE_DIR="$work/cache-on" "$home/bin/warden" resident stop >/dev/null 2>&1 || true
  [ -n "${sink:-}" ] && kill "$sink" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -m 700 "$work/cache-off" "$work/cache-on"
mkdir -p "$work/project"
payload="$(scratch_payload "$work/project")"
cd "$work/project"

python3 "$here/otlp-sink.py" "$work/sink.port" "$work/sink.totals" &
sink=$!
for _ in $(seq 100); do [ -s "$work/sink.port" ] && break; sleep 0.1; done
[ -s "$work/sink.port" ] || { echo "the OTLP sink did not start" >&2; exit 1; }
endpoint="http://127.0.0.1:$(cat "$work/sink.port")"

# run SIDE: one dispatch through SIDE's resident (off or on), payload on stdin.
run() {
  if [ "$1" = on ]; then
    WARDEN_CACHE_DIR="$work/cache-on" WARDEN_OTLP_LIVE="$endpoint" \
      "$home/bin/warden" dispatch --host claude < "$payload"
  else
    WARDEN_CACHE_DIR="$work/cache-off" "$home/bin/warden" dispatch --host claude < "$payload"
  fi
}
# Warm-up per side: the class-data archive, the manifest cache, the resident and its warm-up.
for side in off on; do
  WARDEN_CACHE_DIR="$work/cache-$side" "$home/bin/warden" train-archive >/dev/null
  run "$side" >/dev/null 2>&1 || true
  for _ in $(seq 300); do
    WARDEN_CACHE_DIR="$work/cache-$side" "$home/bin/warden" resident status >/dev/null 2>&1 && break
    sleep 0.1
  done
  WARDEN_CACHE_DIR="$work/cache-$side" "$home/bin/warden" resident status >/dev/null 2>&1 \
    || { echo "the $side resident server did not start" >&2; exit 1; }
  for _ in $(seq 100); do
    grep -q "warm-up ran" "$work/cache-$side"/resident/*.log 2>/dev/null && break
    sleep 0.1
  done
  for _ in $(seq 10); do run "$side" >/dev/null 2>&1; done
done
a="$(run off 2>/dev/null)"; b="$(run on 2>/dev/null)"
[ "$a" = "$b" ] || { echo "answers differ: off='$a' on='$b'" >&2; exit 1; }
lines_before="$(cat "$work"/project/.warden/state/decisions/*.jsonl 2>/dev/null | wc -l)"

ms() { # elapsed milliseconds (3 decimals) of `run "$@"`
  local start end
  start=$EPOCHREALTIME
  run "$@" >/dev/null 2>&1
  end=$EPOCHREALTIME
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", (e - s) * 1000 }'
}
: > "$work/off.txt"; : > "$work/on.txt"
for _ in $(seq "$runs"); do
  ms off >> "$work/off.txt"
  ms on >> "$work/on.txt"
done
lines_after="$(cat "$work"/project/.warden/state/decisions/*.jsonl 2>/dev/null | wc -l)"
[ $((lines_after - lines_before)) -eq $((2 * runs)) ] \
  || { echo "expected $((2 * runs)) decision lines written, found $((lines_after - lines_before))" >&2; exit 1; }
sleep 2 # one batch wait and the request, so the sink's totals include the last events
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "payload: $(basename "$payload")  runs: $runs each, alternating  load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "jar: $home/target/warden.jar ($(git -C "$home" log -1 --format=%h)$(git -C "$home" diff --quiet HEAD -- src 2>/dev/null || echo ', with uncommitted changes'))"
printf '%-36s %9s %9s\n' "" "p50 ms" "p95 ms"
off50=$(pct "$work/off.txt" 0.50); off95=$(pct "$work/off.txt" 0.95)
on50=$(pct "$work/on.txt" 0.50); on95=$(pct "$work/on.txt" 0.95)
printf '%-36s %9s %9s\n' "resident, live export off" "$off50" "$off95"
printf '%-36s %9s %9s\n' "resident, live export on" "$on50" "$on95"
printf '%-36s %9s %9s\n' "on / off" "$(ratio "$on50" "$off50")" "$(ratio "$on95" "$off95")"
echo "sink took (requests bytes): $(cat "$work/sink.totals" 2>/dev/null || echo '0 0')"
WARDEN_CACHE_DIR="$work/cache-on" "$home/bin/warden" doctor 2>/dev/null | grep -i "live OpenTelemetry" || echo "doctor: no live export line"
