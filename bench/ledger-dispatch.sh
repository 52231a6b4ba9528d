#!/usr/bin/env bash
# Wall time and CPU time (user + sys) of one `bin/warden dispatch --host claude` process on the
# subagent events, with the default manifest (subagent-ledger on SubagentStart/SubagentStop,
# spawn-guard in shadow on PreToolUse Agent) side by side with a manifest that binds nothing to
# those events. The difference of the medians is what the ledger and the guard cost a real hook
# process; CPU time is the steadier figure on a shared machine. Runs alternate (bound, unbound,
# bound, ...) so both see the same machine noise; every run uses a fresh agent id, so each start
# opens a record and each stop closes one. Needs GNU time (/usr/bin/time).
#
#   bench/ledger-dispatch.sh [RUNS]        default 30 runs of each event in each configuration
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
home="$(cd "$here/.." && pwd)"
runs="${1:-30}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export WARDEN_CACHE_DIR="$work/cache"
mkdir -p "$work/bound" "$work/unbound"
cat > "$work/unbound.yaml" <<'YAML'
schema_version: 1
concerns:
  block-no-verify: {script: builtin:block-no-verify, tools: [Bash]}
platforms:
  claude:
    pre_tool_use: [block-no-verify]
native_event_aliases:
  claude: {PreToolUse: pre_tool_use, SubagentStart: subagent_start, SubagentStop: subagent_stop}
YAML

[ -f "$home/target/warden.jar" ] || (cd "$home" && mvn -B -q -DskipTests package)
"$home/bin/warden" train-archive >/dev/null

payload() { # event project agent-id
  case "$1" in
    agent) printf '{"session_id":"s","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Agent","tool_input":{"prompt":"p","subagent_type":"general-purpose"}}' "$2" ;;
    start) printf '{"session_id":"s","cwd":"%s","hook_event_name":"SubagentStart","agent_id":"%s","agent_type":"general-purpose"}' "$2" "$3" ;;
    stop) printf '{"session_id":"s","cwd":"%s","hook_event_name":"SubagentStop","agent_id":"%s","agent_type":"general-purpose","stop_hook_active":false,"last_assistant_message":"done"}' "$2" "$3" ;;
  esac
}
ms() { # label event project agent-id [extra dispatch args] -> appends wall ms to <label>.txt, cpu ms to <label>.cpu
  local label="$1" event="$2" project="$3" id="$4" start end
  shift 4
  payload "$event" "$project" "$id" > "$work/in.json"
  start=$EPOCHREALTIME
  /usr/bin/time -f '%U %S' -o "$work/cpu.out" "$home/bin/warden" dispatch --host claude "$@" < "$work/in.json" >/dev/null 2>&1
  end=$EPOCHREALTIME
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", (e - s) * 1000 }' >> "$work/$label.txt"
  awk '{ printf "%.0f\n", ($1 + $2) * 1000 }' "$work/cpu.out" >> "$work/$label.cpu"
}
# Warm-up: compile both manifests into the cache.
ms warm agent "$work/bound" w
ms warm agent "$work/unbound" w --manifest "$work/unbound.yaml"
for i in $(seq "$runs"); do
  ms agent-bound agent "$work/bound" "a$i"
  ms agent-unbound agent "$work/unbound" "a$i" --manifest "$work/unbound.yaml"
  ms start-bound start "$work/bound" "a$i"
  ms start-unbound start "$work/unbound" "a$i" --manifest "$work/unbound.yaml"
  ms stop-bound stop "$work/bound" "a$i"
  ms stop-unbound stop "$work/unbound" "a$i" --manifest "$work/unbound.yaml"
done
lines=$(wc -l < "$work/bound/.warden/state/ledger/"*.jsonl)
[ "$lines" -eq $((3 * runs + 1)) ] || { echo "expected $((3 * runs + 1)) ledger lines, found $lines" >&2; exit 1; }

pct() { sort -n "$1" | awk -v p="$2" '{a[NR]=$1} END {i=int((NR-1)*p+0.5)+1; printf "%.1f", a[i]}'; }
java_bin="${WARDEN_JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/java}}"; java_bin="${java_bin:-$(command -v java)}"
echo "runs: $runs of each, alternating  java: $("$java_bin" -version 2>&1 | head -1)  load: $(cut -d' ' -f1-3 /proc/loadavg)"
for kind in txt:"wall" cpu:"cpu (user+sys)"; do
  printf '%-40s %14s %16s %12s\n' "bin/warden dispatch, p50 ${kind#*:} ms" "ledger bound" "nothing bound" "difference"
  for e in agent:"PreToolUse Agent (spawn-guard)" start:SubagentStart stop:SubagentStop; do
    b=$(pct "$work/${e%%:*}-bound.${kind%%:*}" 0.5); u=$(pct "$work/${e%%:*}-unbound.${kind%%:*}" 0.5)
    printf '%-40s %14s %16s %12s\n' "  ${e#*:}" "$b" "$u" "$(awk -v b="$b" -v u="$u" 'BEGIN { printf "%.1f", b - u }')"
  done
done
