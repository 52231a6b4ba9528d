#!/usr/bin/env bash
# One HTTP round trip to a resident `bin/warden serve` (curl POST of the Claude Code PreToolUse Bash
# payload to /dispatch/claude/PreToolUse, default manifest) side by side with one cold
# `bin/warden dispatch --host claude` process on the same stdin. Runs alternate; prints p50 and p95
# of curl's own request time (%{time_total}: connect, send, Warden's answer, receive), of request
# sent to first response byte (%{time_starttransfer} - %{time_pretransfer}), of the whole
# curl process, and of the dispatch process. Checks that both transports print the same verdict.
#
#   bench/serve-latency.sh [RUNS]        default 40 runs each (after 200 warm-up requests)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
runs="${1:-40}"
# the captured payload, its cwd at the scratch directory (a project of its own)
payload="$(scratch_payload "$work")"
# The dispatch row is the one-JVM-per-event process that serve is compared with.
export WARDEN_RESIDENT=off
cd "$work"

"$home/bin/warden" serve > "$work/serve.out" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 300); do [ -s "$WARDEN_CACHE_DIR/serve.json" ] && break; sleep 0.1; done
state="$(cat "$WARDEN_CACHE_DIR/serve.json")"
port="$(sed -n 's/.*"port":\([0-9]*\).*/\1/p' <<<"$state")"
token="$(sed -n 's/.*"token":"\([0-9a-f]*\)".*/\1/p' <<<"$state")"
url="http://127.0.0.1:$port/dispatch/claude/PreToolUse"
post() { curl -sS -H "Authorization: Bearer $token" --data-binary @"$payload" "$@" "$url"; }

"$home/bin/warden" dispatch --host claude < "$payload" >/dev/null
for _ in $(seq 200); do post -o /dev/null; done
via_http="$(post)"
via_process="$("$home/bin/warden" dispatch --host claude < "$payload")"
if [ "$via_http" != "$via_process" ]; then
  echo "verdicts differ: serve='$via_http' dispatch='$via_process'" >&2
  exit 1
fi

ms() { local start end; start=$EPOCHREALTIME; "$@" >/dev/null 2>&1; end=$EPOCHREALTIME
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", (e - s) * 1000 }'; }
: > "$work/curl-total.txt"; : > "$work/server.txt"; : > "$work/curl-wall.txt"; : > "$work/dispatch.txt"
for _ in $(seq "$runs"); do
  post -o /dev/null -w '%{time_total} %{time_pretransfer} %{time_starttransfer}\n' \
    | awk -v t="$work/curl-total.txt" -v s="$work/server.txt" \
      '{ printf "%.3f\n", $1 * 1000 >> t; printf "%.3f\n", ($3 - $2) * 1000 >> s }'
  ms post -o /dev/null >> "$work/curl-wall.txt"
  start=$EPOCHREALTIME; "$home/bin/warden" dispatch --host claude < "$payload" >/dev/null 2>&1; end=$EPOCHREALTIME
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", (e - s) * 1000 }' >> "$work/dispatch.txt"
done
echo "payload: $(basename "$payload")  runs: $runs each, alternating  verdict: ${via_http:-no opinion (empty stdout)}"
printf '%-40s %8s %8s\n' "" "p50 ms" "p95 ms"
printf '%-40s %8s %8s\n' "serve: curl time_total (HTTP round trip)" "$(pct "$work/curl-total.txt" 0.5 2)" "$(pct "$work/curl-total.txt" 0.95 2)"
printf '%-40s %8s %8s\n' "serve: request sent to first byte back" "$(pct "$work/server.txt" 0.5 2)" "$(pct "$work/server.txt" 0.95 2)"
printf '%-40s %8s %8s\n' "serve: whole curl process" "$(pct "$work/curl-wall.txt" 0.5 2)" "$(pct "$work/curl-wall.txt" 0.95 2)"
printf '%-40s %8s %8s\n' "bin/warden dispatch process" "$(pct "$work/dispatch.txt" 0.5 2)" "$(pct "$work/dispatch.txt" 0.95 2)"
