#!/usr/bin/env bash
# Wall time of one `bin/warden dispatch --host claude` on a Claude Code PreToolUse Bash payload with
# the default chain, side by side with bench/baseline-hook.js (node, same stdin, same verdict) and
# with the JVM floor (the same java and start-up flags running an empty main). Runs alternate
# (warden, floor, node, ...) so all see the same machine noise; prints p50, p95 and the p50 ratios.
#
#   bench/dispatch-latency.sh [RUNS]        default 40 runs each
#   WARDEN_JAVA=/path/to/java bench/dispatch-latency.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
home="$(cd "$here/.." && pwd)"
runs="${1:-40}"
payload="$here/pretooluse-bash.json"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export WARDEN_CACHE_DIR="$work/cache"
cd "$work"

[ -f "$home/target/warden.jar" ] || (cd "$home" && mvn -B -q -DskipTests package)
java_bin="${WARDEN_JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/java}}"; java_bin="${java_bin:-$(command -v java)}"
javac_bin="$(dirname "$(readlink -f "$java_bin")")/javac"
mkdir -p "$work/floor"
printf 'public class Empty { public static void main(String[] a) { } }\n' > "$work/floor/Empty.java"
"$javac_bin" -d "$work/floor" "$work/floor/Empty.java"
floor_flags=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData -Xlog:disable -Xlog:all=warning:stderr)
# Warm-up: compile the manifest cache and make sure the class-data archive exists.
"$home/bin/warden" train-archive >/dev/null
"$home/bin/warden" dispatch --host claude < "$payload" >/dev/null
node "$here/baseline-hook.js" < "$payload" >/dev/null

expected_warden="$("$home/bin/warden" dispatch --host claude < "$payload")"
expected_node="$(node "$here/baseline-hook.js" < "$payload")"
if [ "$expected_warden" != "$expected_node" ]; then
  echo "verdicts differ: warden='$expected_warden' node='$expected_node'" >&2
  exit 1
fi

ms() { # elapsed milliseconds (3 decimals) of running "$@" with the payload on stdin
  local start end
  start=$EPOCHREALTIME
  "$@" < "$payload" >/dev/null 2>&1
  end=$EPOCHREALTIME
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", (e - s) * 1000 }'
}
: > "$work/warden.txt"; : > "$work/node.txt"; : > "$work/floor.txt"
for _ in $(seq "$runs"); do
  ms "$home/bin/warden" dispatch --host claude >> "$work/warden.txt"
  ms "$java_bin" "${floor_flags[@]}" -cp "$work/floor" Empty >> "$work/floor.txt"
  ms node "$here/baseline-hook.js" >> "$work/node.txt"
done

pct() { sort -n "$1" | awk -v p="$2" '{a[NR]=$1} END {i=int((NR-1)*p+0.5)+1; printf "%.1f", a[i]}'; }
w50=$(pct "$work/warden.txt" 0.50); w95=$(pct "$work/warden.txt" 0.95)
n50=$(pct "$work/node.txt" 0.50); n95=$(pct "$work/node.txt" 0.95)
f50=$(pct "$work/floor.txt" 0.50); f95=$(pct "$work/floor.txt" 0.95)
echo "payload: $(basename "$payload")  runs: $runs each, alternating  java: $("$java_bin" -version 2>&1 | head -1)  node: $(node --version)"
printf '%-28s %8s %8s\n' "" "p50 ms" "p95 ms"
printf '%-28s %8s %8s\n' "bin/warden dispatch" "$w50" "$w95"
printf '%-28s %8s %8s\n' "JVM floor (empty main)" "$f50" "$f95"
printf '%-28s %8s %8s\n' "node baseline-hook.js" "$n50" "$n95"
echo "p50 ratio warden/node: $(awk -v w="$w50" -v n="$n50" 'BEGIN { printf "%.2f", w / n }')"
echo "p50 ratio floor/node:  $(awk -v w="$f50" -v n="$n50" 'BEGIN { printf "%.2f", w / n }')"
echo "p50 warden above floor: $(awk -v w="$w50" -v f="$f50" 'BEGIN { printf "%.1f ms", w - f }')"
