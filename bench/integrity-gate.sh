#!/usr/bin/env bash
# Wall time of one `bin/warden dispatch --host claude --native-event SessionStart` with the
# integrity gate (builtin:integrity-attach) bound, side by side with the same dispatch where
# SessionStart has no concern. Cases, run alternating so all see the same machine noise:
#   none      SessionStart bound to nothing (Warden's floor: JVM start, manifest cache, no output)
#   small     a 1 KB user-local agent, markers profile: read, hash, attach as additionalContext
#   squad     an 83 KB Squad coordinator: read, hash, normalize, clip detection, HALT_CORRUPT
# Every gated run also appends six fsync'ed lines to .warden/state/integrity/evidence.jsonl.
#
#   bench/integrity-gate.sh [RUNS]        default 30 runs each
set -euo pipefail
source "$(dirname "$0")/lib.sh"
runs="${1:-30}"
# One JVM per event: this measures the gate's cost in a process of its own.
export WARDEN_RESIDENT=off
# The bench's projects are trusted in a trust store of its own, not the user's.
export XDG_STATE_HOME="$work/state"
"$home/bin/warden" train-archive >/dev/null
"$home/bin/warden" integrity fixtures --work-dir "$work/gen" >/dev/null

project() { # project dir, agent id, agent file, profile, bind (yes/no)
  local dir="$1"
  mkdir -p "$dir/.claude/agents" "$dir/.warden"
  cp "$3" "$dir/.claude/agents/$2.md"
  {
    echo "schema_version: 1"
    echo "concerns:"
    echo "  gate:"
    echo "    script: builtin:integrity-attach"
    echo "    posture: blocking"
    echo "    agent: $2"
    echo "    profile: $4"
    if [ "$4" = markers ]; then
      echo '    head_marker: "<!-- bench:head -->"'
      echo '    eof_marker: "<!-- bench:eof -->"'
    fi
    echo "platforms:"
    echo "  claude:"
    if [ "$5" = yes ]; then echo "    session_start: [gate]"; else echo "    session_start: []"; fi
    echo "native_event_aliases:"
    echo "  claude:"
    echo "    SessionStart: session_start"
  } > "$dir/.warden/manifest.yaml"
  "$home/bin/warden" trust --project-dir "$dir" >/dev/null
  printf '{"session_id":"bench","cwd":"%s","hook_event_name":"SessionStart","source":"startup"}' "$dir" > "$dir/payload.json"
}
{ echo "<!-- bench:head -->"; for i in $(seq 20); do echo "$i. Review rule $i: read the whole diff before commenting."; done; echo "<!-- bench:eof -->"; } > "$work/small.md"
project "$work/none" reviewer "$work/small.md" markers no
project "$work/small" reviewer "$work/small.md" markers yes
project "$work/squad" squad "$work/gen/fixture-1/.github/agents/squad.agent.md" squad yes

run() { # case -> elapsed ms
  local dir="$work/$1" start end
  start=$EPOCHREALTIME
  CLAUDE_PROJECT_DIR="$dir" "$home/bin/warden" dispatch --host claude --native-event SessionStart \
    < "$dir/payload.json" > "$dir/out.json" 2>/dev/null
  end=$EPOCHREALTIME
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", (e - s) * 1000 }'
}
for c in none small squad; do run "$c" >/dev/null; : > "$work/$c.txt"; done   # warm-up: manifest caches
grep -q additionalContext "$work/small/out.json" || { echo "small: no additionalContext" >&2; exit 1; }
grep -q '"continue":false' "$work/squad/out.json" || { echo "squad: no halt" >&2; exit 1; }
for _ in $(seq "$runs"); do
  for c in none small squad; do run "$c" >> "$work/$c.txt"; done
done

java_bin="${WARDEN_JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/java}}"; java_bin="${java_bin:-$(command -v java)}"
echo "runs: $runs each, alternating  java: $("$java_bin" -version 2>&1 | head -1)"
printf '%-44s %8s %8s\n' "" "p50 ms" "p95 ms"
printf '%-44s %8s %8s\n' "SessionStart, nothing bound" "$(pct "$work/none.txt" 0.5)" "$(pct "$work/none.txt" 0.95)"
printf '%-44s %8s %8s\n' "integrity-attach, 1 KB agent (attached)" "$(pct "$work/small.txt" 0.5)" "$(pct "$work/small.txt" 0.95)"
printf '%-44s %8s %8s\n' "integrity-attach, 83 KB coordinator (halt)" "$(pct "$work/squad.txt" 0.5)" "$(pct "$work/squad.txt" 0.95)"
echo "evidence lines written: $(cat "$work"/*/.warden/state/integrity/evidence.jsonl | wc -l)"
