#!/usr/bin/env bash
# Per-turn cost of the inventory-turns built-in: wall time of one `bin/warden dispatch --host
# claude` UserPromptSubmit with it bound (one stdio MCP server, the real server-everything from
# .mcp.json), side by side with the same event under a manifest without it, in a JVM per event
# (cold: no cache, so every turn starts the server and lists its tools) and through the resident
# (warm: the manifest is kept between turns; the server stays up and is listened to for
# list_changed). Runs alternate so all four see the same machine noise. Also prints the
# built-in's own time per turn as its turn records state it (elapsed_ms), by cache kind.
#
#   bench/inventory-turns.sh [RUNS]        default 20 runs of each
set -euo pipefail
source "$(dirname "$0")/lib.sh"
runs="${1:-20}"
server="${WARDEN_E2E_CACHE:-$HOME/.cache/agent-warden-e2e}/mcp-everything/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
[ -f "$server" ] || { echo "server-everything is not installed at $server (.ci/run installs it)" >&2; exit 1; }
cleanup() {
  "$home/bin/warden" resident stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
project="$work/project"
mkdir -p "$project" "$work/home"
export HOME="$work/home"
printf '{"mcpServers":{"everything":{"command":"%s","args":["%s","stdio"]}}}\n' "$(command -v node)" "$server" > "$project/.mcp.json"
aliases='native_event_aliases:
  claude: {UserPromptSubmit: user_prompt_submit}'
cat > "$work/bound.yaml" <<YAML
schema_version: 1
concerns:
  inventory: {script: builtin:inventory-turns, allow_project_servers: true, wait_ms: 10s, timeout_ms: 20000}
platforms:
  claude:
    user_prompt_submit: [inventory]
$aliases
YAML
cat > "$work/unbound.yaml" <<YAML
schema_version: 1
concerns:
  note: {script: builtin:context-note}
platforms:
  claude:
    user_prompt_submit: [note]
$aliases
YAML
printf '{"session_id":"bench","cwd":"%s","hook_event_name":"UserPromptSubmit","prompt":"go"}' "$project" > "$work/in.json"
ms() { # label manifest resident-mode -> appends elapsed ms to $work/<label>.txt
  local start end
  start=$EPOCHREALTIME
  WARDEN_RESIDENT="$3" "$home/bin/warden" dispatch --host claude --manifest "$2" < "$work/in.json" >/dev/null 2>"$work/err"
  end=$EPOCHREALTIME
  if grep -q 'inventory' "$work/err"; then cat "$work/err" >&2; fi
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", (e - s) * 1000 }' >> "$work/$1.txt"
}
"$home/bin/warden" train-archive >/dev/null
ms warm "$work/bound.yaml" off
ms warm "$work/unbound.yaml" off
ms warm "$work/bound.yaml" auto
for _ in $(seq 300); do
  "$home/bin/warden" resident status >/dev/null 2>&1 && break
  sleep 0.1
done
"$home/bin/warden" resident status >/dev/null 2>&1 || { echo "the resident server did not start" >&2; exit 1; }
for _ in 1 2 3; do ms warm "$work/bound.yaml" auto; ms warm "$work/unbound.yaml" auto; done
for _ in $(seq "$runs"); do
  ms jvm-bound "$work/bound.yaml" off
  ms jvm-unbound "$work/unbound.yaml" off
  ms resident-bound "$work/bound.yaml" auto
  ms resident-unbound "$work/unbound.yaml" auto
done
records="$project/.warden/state/inventory/turns"
# The built-in's own time per turn, by what kept the manifest.
grep -h '"cache":"resident"' "$records"/*.jsonl | tail -n "$runs" | grep -o '"elapsed_ms":[0-9]*' | cut -d: -f2 > "$work/own-resident.txt"
grep -h '"cache":"none' "$records"/*.jsonl | tail -n "$runs" | grep -o '"elapsed_ms":[0-9]*' | cut -d: -f2 > "$work/own-jvm.txt"
[ "$(wc -l < "$work/own-resident.txt")" -eq "$runs" ] && [ "$(wc -l < "$work/own-jvm.txt")" -eq "$runs" ] \
  || { echo "expected $runs turn records of each kind" >&2; exit 1; }
grep -q '"state":"cached"' "$records"/*.jsonl || { echo "the resident never served a cached manifest" >&2; exit 1; }

java_bin="${WARDEN_JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/java}}"; java_bin="${java_bin:-$(command -v java)}"
echo "runs: $runs of each, alternating  java: $("$java_bin" -version 2>&1 | head -1)  load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-26s %10s %10s %12s %12s %10s %16s\n' "UserPromptSubmit" "bound p50" "bound p95" "unbound p50" "unbound p95" "p50 diff" "built-in p50/p95"
for mode in jvm:"own JVM (cold)" resident:"resident (warm)"; do
  m="${mode%%:*}"
  b50=$(pct "$work/$m-bound.txt" 0.5); b95=$(pct "$work/$m-bound.txt" 0.95)
  u50=$(pct "$work/$m-unbound.txt" 0.5); u95=$(pct "$work/$m-unbound.txt" 0.95)
  printf '%-26s %10s %10s %12s %12s %10s %16s\n' "${mode#*:}" "$b50" "$b95" "$u50" "$u95" \
    "$(awk -v b="$b50" -v u="$u50" 'BEGIN { printf "%.1f", b - u }')" \
    "$(pct "$work/own-$m.txt" 0.5 0)/$(pct "$work/own-$m.txt" 0.95 0)"
done
