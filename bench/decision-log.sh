#!/usr/bin/env bash
# What the decision log costs per dispatch, WARDEN_DECISION_LOG=off against on:
#   - warm, in-process (the resident's case): bench/DecisionLogBench.java, 10 x 1,000 dispatches each way
#   - own JVM, inside it: RUNS fresh JVMs each way (dispatch start-up flags, no archive), each
#     timing its one dispatch with System.nanoTime (JVM start excluded), alternating
#
#   bench/decision-log.sh [RUNS]        default 40 fresh JVMs each way
set -euo pipefail
source "$(dirname "$0")/lib.sh"
runs="${1:-40}"
cd "$home"
java_bin="${WARDEN_JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/java}}"; java_bin="${java_bin:-$(command -v java)}"
javac_bin="$(dirname "$(readlink -f "$java_bin")")/javac"
mkdir -p "$work/classes"
"$javac_bin" -d "$work/classes" -cp target/warden.jar bench/DecisionLogBench.java
"$java_bin" -cp "target/warden.jar:$work/classes" DecisionLogBench
echo
flags=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData -Xlog:disable)
: > "$work/off"; : > "$work/on"
for _ in 1 2; do "$java_bin" "${flags[@]}" -cp "target/warden.jar:$work/classes" DecisionLogBench cold on >/dev/null; done
for _ in $(seq "$runs"); do
  "$java_bin" "${flags[@]}" -cp "target/warden.jar:$work/classes" DecisionLogBench cold off >> "$work/off"
  "$java_bin" "${flags[@]}" -cp "target/warden.jar:$work/classes" DecisionLogBench cold on >> "$work/on"
done
printf '%-44s %8s %8s\n' "own JVM, one dispatch, $runs JVMs each (us)" p50 p95
printf '%-44s %8s %8s\n' "decision log off" "$(pct "$work/off" 0.5 0)" "$(pct "$work/off" 0.95 0)"
printf '%-44s %8s %8s\n' "decision log on" "$(pct "$work/on" 0.5 0)" "$(pct "$work/on" 0.95 0)"
