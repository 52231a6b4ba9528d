#!/usr/bin/env bash
# Wall time of one `bin/warden dispatch --host claude` process on the subagent events, with a
# manifest that binds subagent-ledger (SubagentStart/SubagentStop) and spawn-guard in shadow
# (PreToolUse Agent) as the default does, side by side with the same manifest minus those two
# bindings. The difference of the medians is what the ledger and the guard cost a real hook
# process. Runs alternate (bound, unbound, bound, ...) so both see the same machine noise; every
# run uses a fresh agent id, so each start opens a record and each stop closes one.
#
#   bench/ledger-dispatch.sh [RUNS]        default 30 runs of each event in each configuration
set -euo pipefail
source "$(dirname "$0")/lib.sh"
runs="${1:-30}"
# One JVM per event: this measures the ledger's cost in a process of its own.
export WARDEN_RESIDENT=off
mkdir -p "$work/bound" "$work/unbound"
aliases='native_event_aliases:
  claude: {PreToolUse: pre_tool_use, SubagentStart: subagent_start, SubagentStop: subagent_stop}'
cat > "$work/unbound.yaml" <<YAML
schema_version: 1
concerns:
  block-no-verify: {script: builtin:block-no-verify, tools: [Bash]}
platforms:
  claude:
    pre_tool_use: [block-no-verify]
$aliases
YAML
cat > "$work/bound.yaml" <<YAML
schema_version: 1
concerns:
  block-no-verify: {script: builtin:block-no-verify, tools: [Bash]}
  subagent-ledger: {script: builtin:subagent-ledger, posture: shadow}
  spawn-guard: {script: builtin:spawn-guard, posture: shadow, tools: [Agent, Task]}
platforms:
  claude:
    pre_tool_use: [block-no-verify, spawn-guard]
    subagent_start: [subagent-ledger]
    subagent_stop: [subagent-ledger]
$aliases
YAML

"$home/bin/warden" train-archive >/dev/null

payload() { # event project agent-id
  case "$1" in
    agent) printf '{"session_id":"s","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Agent","tool_input":{"prompt":"p","subagent_type":"general-purpose"}}' "$2" ;;
    start) printf '{"session_id":"s","cwd":"%s","hook_event_name":"SubagentStart","agent_id":"%s","agent_type":"general-purpose"}' "$2" "$3" ;;
    stop) printf '{"session_id":"s","cwd":"%s","hook_event_name":"SubagentStop","agent_id":"%s","agent_type":"general-purpose","stop_hook_active":false,"last_assistant_message":"done"}' "$2" "$3" ;;
  esac
}
ms() { # label event project agent-id manifest -> appends elapsed ms to $work/<label>.txt
  local label="$1" event="$2" project="$3" id="$4" manifest="$5" start end
  payload "$event" "$project" "$id" > "$work/in.json"
  start=$EPOCHREALTIME
  "$home/bin/warden" dispatch --host claude --manifest "$manifest" < "$work/in.json" >/dev/null 2>&1
  end=$EPOCHREALTIME
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", (e - s) * 1000 }' >> "$work/$label.txt"
}
# Warm-up: compile both manifests into the cache.
ms warm agent "$work/bound" w "$work/bound.yaml"
ms warm agent "$work/unbound" w "$work/unbound.yaml"
for i in $(seq "$runs"); do
  for event in agent start stop; do
    ms "$event-bound" "$event" "$work/bound" "a$i" "$work/bound.yaml"
    ms "$event-unbound" "$event" "$work/unbound" "a$i" "$work/unbound.yaml"
  done
done
lines=$(wc -l < "$work/bound/.warden/state/ledger/"*.jsonl)
[ "$lines" -eq $((3 * runs + 1)) ] || { echo "expected $((3 * runs + 1)) ledger lines, found $lines" >&2; exit 1; }

java_bin="${WARDEN_JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/java}}"; java_bin="${java_bin:-$(command -v java)}"
echo "runs: $runs of each, alternating  java: $("$java_bin" -version 2>&1 | head -1)  load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-32s %10s %10s %12s %12s %8s\n' "bin/warden dispatch" "bound p50" "bound p95" "unbound p50" "unbound p95" "p50 diff"
for e in agent:"PreToolUse Agent (spawn-guard)" start:SubagentStart stop:SubagentStop; do
  b50=$(pct "$work/${e%%:*}-bound.txt" 0.5); b95=$(pct "$work/${e%%:*}-bound.txt" 0.95)
  u50=$(pct "$work/${e%%:*}-unbound.txt" 0.5); u95=$(pct "$work/${e%%:*}-unbound.txt" 0.95)
  printf '%-32s %10s %10s %12s %12s %8s\n' "${e#*:}" "$b50" "$b95" "$u50" "$u95" \
    "$(awk -v b="$b50" -v u="$u50" 'BEGIN { printf "%.1f", b - u }')"
done
