#!/usr/bin/env bash
# Wall time of one `bin/warden dispatch --host claude` on a Claude Code PreToolUse Bash payload with
# the default chain, side by side with bench/baseline-hook.js (node, same stdin, same verdict):
#   - bin/warden dispatch                the default set-up: the launcher hands the event to the
#                                        resident server (started by the first event; no JVM starts)
#   - bin/warden dispatch, own JVM       WARDEN_RESIDENT=off: one JVM per event, class-data archive
#   - installed hook, own JVM            the PreToolUse command `warden install --host claude` writes,
#                                        through sh -c as Claude Code runs it, WARDEN_RESIDENT=off: the
#                                        compiled hook runs the one-event JVM plan (bin/warden where no C
#                                        compiler exists: the row then says so)
#   - JVM floor (empty main)             the same java and start-up flags (the collector bin/warden
#                                        picks for it) running an empty main
#   - node baseline-hook.js
# Runs alternate (resident, own JVM, floor, node, ...) so all see the same machine noise; prints p50,
# p95 and the p50 ratios.
#
#   bench/dispatch-latency.sh [RUNS]        default 40 runs each
#   WARDEN_JAVA=/path/to/java bench/dispatch-latency.sh
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
runs="${1:-40}"
# the captured payload, its cwd at the scratch directory (a project of its own)
payload="$(scratch_payload "$work")"
cleanup() {
  "$home/bin/warden" resident stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
java_bin="${WARDEN_JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/java}}"; java_bin="${java_bin:-$(command -v java)}"
javac_bin="$(dirname "$(readlink -f "$java_bin")")/javac"
mkdir -p "$work/floor"
printf 'public class Empty { public static void main(String[] a) { } }\n' > "$work/floor/Empty.java"
"$javac_bin" -d "$work/floor" "$work/floor/Empty.java"
floor_flags=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData -Xlog:disable -Xlog:all=warning:stderr)
# The collector bin/warden picks for this JDK: on 17, G1 with a small heap (LauncherFacts.JDK17_GC_FLAGS).
if "$java_bin" -XshowSettings:properties -version 2>&1 | grep -q 'java.specification.version = 17$'; then
  floor_flags=(-XX:TieredStopAtLevel=1 -XX:+UseG1GC -Xms8m -Xmx1g -XX:-UsePerfData -Xlog:disable -Xlog:all=warning:stderr)
fi
# Warm-up: compile the manifest cache, make sure the class-data archive exists, and let the first
# event start the resident server.
"$home/bin/warden" train-archive >/dev/null
WARDEN_RESIDENT=auto "$home/bin/warden" dispatch --host claude < "$payload" >/dev/null
for _ in $(seq 300); do
  "$home/bin/warden" resident status >/dev/null 2>&1 && break
  sleep 0.1
done
"$home/bin/warden" resident status >&2 || { echo "the resident server did not start" >&2; exit 1; }
for _ in 1 2 3 4 5; do WARDEN_RESIDENT=auto "$home/bin/warden" dispatch --host claude < "$payload" >/dev/null; done
# The command install writes for PreToolUse (the project has no manifest: the shipped default is in force).
mkdir -p "$work/installed"
(cd "$work/installed" && "$home/bin/warden" install --host claude --no-train >/dev/null)
hook_cmd="$(python3 -c 'import json, sys
for group in json.load(open(sys.argv[1]))["hooks"]["PreToolUse"]:
    for h in group["hooks"]:
        if "dispatch --host claude" in h["command"]:
            print(h["command"])' "$work/installed/.claude/settings.json")"
hook_label="installed hook, own JVM"
case "$hook_cmd" in "[ -x "*) ;; *) hook_label="installed hook, own JVM (no cc)" ;; esac
# The first event writes the plan.
WARDEN_RESIDENT=off sh -c "$hook_cmd" < "$payload" >/dev/null 2>&1
node "$here/baseline-hook.js" < "$payload" >/dev/null

expected_resident="$(WARDEN_RESIDENT=auto "$home/bin/warden" dispatch --host claude < "$payload")"
expected_jvm="$(WARDEN_RESIDENT=off "$home/bin/warden" dispatch --host claude < "$payload")"
expected_hook="$(WARDEN_RESIDENT=off sh -c "$hook_cmd" < "$payload")"
expected_node="$(node "$here/baseline-hook.js" < "$payload")"
if [ "$expected_resident" != "$expected_node" ] || [ "$expected_jvm" != "$expected_node" ] || [ "$expected_hook" != "$expected_node" ]; then
  echo "verdicts differ: resident='$expected_resident' own JVM='$expected_jvm' installed hook own JVM='$expected_hook' node='$expected_node'" >&2
  exit 1
fi

ms() { # elapsed milliseconds (3 decimals) of running "$@" with the payload on stdin
  local start end
  start=$EPOCHREALTIME
  "$@" < "$payload" >/dev/null 2>&1
  end=$EPOCHREALTIME
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", (e - s) * 1000 }'
}
: > "$work/resident.txt"; : > "$work/jvm.txt"; : > "$work/hook.txt"; : > "$work/node.txt"; : > "$work/floor.txt"
for _ in $(seq "$runs"); do
  WARDEN_RESIDENT=auto ms "$home/bin/warden" dispatch --host claude >> "$work/resident.txt"
  WARDEN_RESIDENT=off ms "$home/bin/warden" dispatch --host claude >> "$work/jvm.txt"
  WARDEN_RESIDENT=off ms sh -c "$hook_cmd" >> "$work/hook.txt"
  ms "$java_bin" "${floor_flags[@]}" -cp "$work/floor" Empty >> "$work/floor.txt"
  ms node "$here/baseline-hook.js" >> "$work/node.txt"
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
r50=$(pct "$work/resident.txt" 0.50); r95=$(pct "$work/resident.txt" 0.95)
j50=$(pct "$work/jvm.txt" 0.50); j95=$(pct "$work/jvm.txt" 0.95)
h50=$(pct "$work/hook.txt" 0.50); h95=$(pct "$work/hook.txt" 0.95)
n50=$(pct "$work/node.txt" 0.50); n95=$(pct "$work/node.txt" 0.95)
f50=$(pct "$work/floor.txt" 0.50); f95=$(pct "$work/floor.txt" 0.95)
echo "payload: $(basename "$payload")  runs: $runs each, alternating  load: $(cut -d' ' -f1-3 /proc/loadavg)  java: $("$java_bin" -version 2>&1 | head -1)  node: $(node --version)"
printf '%-36s %8s %8s\n' "" "p50 ms" "p95 ms"
printf '%-36s %8s %8s\n' "bin/warden dispatch (resident)" "$r50" "$r95"
printf '%-36s %8s %8s\n' "bin/warden dispatch, own JVM" "$j50" "$j95"
printf '%-36s %8s %8s\n' "$hook_label" "$h50" "$h95"
printf '%-36s %8s %8s\n' "JVM floor (empty main)" "$f50" "$f95"
printf '%-36s %8s %8s\n' "node baseline-hook.js" "$n50" "$n95"
echo "p50 ratio warden/node:          $(ratio "$r50" "$n50")"
echo "p50 ratio warden own JVM/node:  $(ratio "$j50" "$n50")"
echo "p50 ratio installed own JVM/node: $(ratio "$h50" "$n50")"
echo "p50 ratio floor/node:           $(ratio "$f50" "$n50")"
echo "p50 own JVM above floor:        $(awk -v w="$j50" -v f="$f50" 'BEGIN { printf "%.1f ms", w - f }')"
