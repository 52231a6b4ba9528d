#!/usr/bin/env bash
# What the decision log costs per dispatch:
#   - warm, in-process (the resident's case): bench/DecisionLogBench.java, 10,000 dispatches each way
#   - own JVM (WARDEN_RESIDENT=off bin/warden dispatch): RUNS alternating runs with
#     WARDEN_DECISION_LOG=off and on, p50 and p95 wall time of each
#
#   bench/decision-log.sh [RUNS]        default 40 own-JVM runs each way
set -euo pipefail
source "$(dirname "$0")/lib.sh"
runs="${1:-40}"
payload="$here/pretooluse-bash.json"
(cd "$home" && java -cp target/warden.jar bench/DecisionLogBench.java)
echo
project="$work/project"; mkdir -p "$project"
export CLAUDE_PROJECT_DIR="$project" WARDEN_RESIDENT=off
"$home/bin/warden" train-archive >/dev/null
for _ in 1 2 3; do "$home/bin/warden" dispatch --host claude < "$payload" >/dev/null; done
ms() { local t0 t1; t0=$(date +%s%N); "$@" < "$payload" >/dev/null; t1=$(date +%s%N); echo "scale=3; ($t1-$t0)/1000000" | bc; }
: > "$work/off"; : > "$work/on"
for _ in $(seq "$runs"); do
  WARDEN_DECISION_LOG=off ms "$home/bin/warden" dispatch --host claude >> "$work/off"
  ms "$home/bin/warden" dispatch --host claude >> "$work/on"
done
printf '%-40s %8s %8s\n' "own JVM, $runs runs each (ms)" p50 p95
printf '%-40s %8s %8s\n' "decision log off" "$(pct "$work/off" 0.5)" "$(pct "$work/off" 0.95)"
printf '%-40s %8s %8s\n' "decision log on" "$(pct "$work/on" 0.5)" "$(pct "$work/on" 0.95)"
echo "lines written: $(cat "$project"/.warden/state/decisions/*.jsonl | wc -l)"
