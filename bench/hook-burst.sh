#!/usr/bin/env bash
# A burst of hooks against one resident (issue 28 item 15): hosts run every matching hook at once
# (Claude Code runs them in parallel; a fan-out of subagents multiplies that). CONC copies of the
# installed PreToolUse command (what `warden install --host claude` writes, run as Claude Code runs
# it: sh -c) start together, ROUNDS times, each with its own payload (a no-verify commit naming its
# number, which the shipped default manifest denies). Reports:
#   - fallbacks: events bin/warden answered by starting a JVM (WARDEN_JAVA is a program that records
#     its arguments and fails, so a fallback is both counted and visible as a missing answer); must be 0
#   - lost: events without exactly one deny answer naming their own number on stdout; must be 0
#   - duplicates: decision lines beyond one per event (an event evaluated twice); must be 0
#   - wall-time p50 and p99 of a hook in the burst, beside the p50 of the same hook run alone
#
#   bench/hook-burst.sh [CONC] [ROUNDS] [SINGLE_RUNS]     default 32 20 100
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
conc="${1:-32}"
rounds="${2:-20}"
single="${3:-100}"
cleanup() {
  WARDEN_JAVA= "$home/bin/warden" resident stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -m 700 "$WARDEN_CACHE_DIR"
project="$work/project"
mkdir -p "$project"
(cd "$project" && "$home/bin/warden" install --host claude --no-train >/dev/null)
cmd="$(python3 -c 'import json, sys
for group in json.load(open(sys.argv[1]))["hooks"]["PreToolUse"]:
    for h in group["hooks"]:
        if "dispatch --host claude" in h["command"]:
            print(h["command"])' "$project/.claude/settings.json")"
mkdir -p "$work/payloads" "$work/out"
payload() { # payload N: a PreToolUse Bash payload for event N, cwd the project
  printf '{"session_id":"burst","transcript_path":"/dev/null","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git commit --no-verify -m burst-%s"},"tool_use_id":"toolu_%s"}' \
    "$project" "$1" "$1"
}
total=$((conc * rounds))
for i in $(seq 0 $((total + single))); do payload "$i" > "$work/payloads/$i.json"; done
cd "$project"
# Start the resident with the real java, let its warm-up end, then forbid any JVM.
"$home/bin/warden" dispatch --host claude < "$work/payloads/0.json" >/dev/null 2>&1 || true
for _ in $(seq 300); do "$home/bin/warden" resident status >/dev/null 2>&1 && break; sleep 0.1; done
"$home/bin/warden" resident status >/dev/null 2>&1 || { echo "the resident server did not start" >&2; exit 1; }
for _ in $(seq 100); do grep -q "warm-up ran" "$WARDEN_CACHE_DIR"/resident/*.log 2>/dev/null && break; sleep 0.1; done
calls="$work/java-calls"
: > "$calls"
printf '#!/bin/sh\necho "$*" >> "%s"\nexit 97\n' "$calls" > "$work/forbidden-java"
chmod 700 "$work/forbidden-java"
export WARDEN_JAVA="$work/forbidden-java" WARDEN_NO_ARCHIVE=1
decisions() { find "$project" -path "*decisions*" -name "*.jsonl" -exec cat {} + 2>/dev/null | wc -l; }
before="$(decisions)"

one() { # one N: runs the installed hook on payload N, its answer to out/N, its wall time (us) to out/N.t
  local s e
  s=$EPOCHREALTIME
  sh -c "$cmd" < "$work/payloads/$1.json" > "$work/out/$1" 2>/dev/null || true
  e=$EPOCHREALTIME
  echo $(( ${e/./} - ${s/./} )) > "$work/out/$1.t"
}
n=1
for _ in $(seq "$rounds"); do
  for _ in $(seq "$conc"); do one "$n" & n=$((n + 1)); done
  wait
done
burst_end=$n
for _ in $(seq "$single"); do one "$n"; n=$((n + 1)); done

lost=0
for i in $(seq 1 $((n - 1))); do
  answers="$(grep -o '"permissionDecision":"deny"' "$work/out/$i" | wc -l)"
  [ "$answers" = 1 ] || lost=$((lost + 1))
done
after="$(decisions)"
events=$((n - 1))
duplicates=$(( after - before - events )); [ "$duplicates" -lt 0 ] && duplicates=0
missing_lines=$(( events - (after - before) )); [ "$missing_lines" -lt 0 ] && missing_lines=0
fallbacks="$(wc -l < "$calls")"
for i in $(seq 1 $((burst_end - 1))); do awk '{ printf "%.3f\n", $1 / 1000 }' "$work/out/$i.t"; done > "$work/burst.ms"
for i in $(seq "$burst_end" $((n - 1))); do awk '{ printf "%.3f\n", $1 / 1000 }' "$work/out/$i.t"; done > "$work/single.ms"
echo "installed hook: $cmd"
echo "burst: $conc concurrent x $rounds rounds = $total events; alone: $single events  load: $(cut -d' ' -f1-3 /proc/loadavg)  cores: $(nproc)"
printf '%-34s %8s\n' "fallbacks to a JVM" "$fallbacks"
printf '%-34s %8s\n' "lost answers" "$lost"
printf '%-34s %8s\n' "decision lines missing" "$missing_lines"
printf '%-34s %8s\n' "duplicate decision lines" "$duplicates"
printf '%-34s %8s %8s %8s\n' "" "p50 ms" "p99 ms" "max ms"
printf '%-34s %8s %8s %8s\n' "hook alone" "$(pct "$work/single.ms" 0.50 1)" "$(pct "$work/single.ms" 0.99 1)" "$(pct "$work/single.ms" 1.0 1)"
printf '%-34s %8s %8s %8s\n' "hook in a burst of $conc" "$(pct "$work/burst.ms" 0.50 1)" "$(pct "$work/burst.ms" 0.99 1)" "$(pct "$work/burst.ms" 1.0 1)"
[ "$fallbacks" = 0 ] && [ "$lost" = 0 ] && [ "$duplicates" = 0 ] && [ "$missing_lines" = 0 ]
