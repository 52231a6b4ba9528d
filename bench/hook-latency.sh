#!/usr/bin/env bash
# Wall time of the installed command hook, side by side with the floor of any hook process:
#   - /bin/true                          the floor: fork and exec of a program that does nothing
#   - bash -c :                          starting bash
#   - compiled hook                      what `warden install` writes where cc exists: the client
#                                        bin/warden build-hook compiles (resident answers)
#   - bin/warden dispatch (resident)     the bash launcher on the same path
# All four get the captured Claude Code PreToolUse Bash payload on stdin and run alternately; prints
# p50 and p95 and the p50 ratios to /bin/true.
#
#   bench/hook-latency.sh [RUNS]         default 200 runs each
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
runs="${1:-200}"
payload="$here/pretooluse-bash.json"
cleanup() {
  "$home/bin/warden" resident stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -m 700 "$WARDEN_CACHE_DIR"
cd "$work"
hook="$("$home/bin/warden" build-hook)"
"$home/bin/warden" dispatch --host claude < "$payload" >/dev/null 2>&1 || true
for _ in $(seq 300); do
  "$home/bin/warden" resident status >/dev/null 2>&1 && break
  sleep 0.1
done
"$home/bin/warden" resident status >/dev/null 2>&1 || { echo "the resident server did not start" >&2; exit 1; }
expected="$("$home/bin/warden" dispatch --host claude < "$payload" 2>/dev/null)"
got="$("$hook" dispatch --host claude < "$payload" 2>/dev/null)"
[ "$expected" = "$got" ] || { echo "the compiled hook answered '$got', bin/warden '$expected'" >&2; exit 1; }
# The compiled hook answers through the resident: it runs no other program (no fallback to bin/warden).
if command -v strace >/dev/null; then
  execs="$(strace -f -e trace=execve -o "$work/execs" "$hook" dispatch --host claude < "$payload" >/dev/null 2>&1; grep -c 'execve(' "$work/execs")"
  [ "$execs" = 1 ] || { echo "the compiled hook ran $execs programs: it fell back to bin/warden" >&2; exit 1; }
fi

# Times go to files as microseconds; the loop itself only runs the programs.
: > "$work/true.txt"; : > "$work/bash.txt"; : > "$work/hook.txt"; : > "$work/launcher.txt"
for _ in $(seq "$runs"); do
  s=$EPOCHREALTIME; /bin/true < "$payload" >/dev/null 2>&1; e=$EPOCHREALTIME
  echo "${s/./} ${e/./}" >> "$work/true.txt"
  s=$EPOCHREALTIME; bash -c : < "$payload" >/dev/null 2>&1; e=$EPOCHREALTIME
  echo "${s/./} ${e/./}" >> "$work/bash.txt"
  s=$EPOCHREALTIME; "$hook" dispatch --host claude < "$payload" >/dev/null 2>&1; e=$EPOCHREALTIME
  echo "${s/./} ${e/./}" >> "$work/hook.txt"
  s=$EPOCHREALTIME; "$home/bin/warden" dispatch --host claude < "$payload" >/dev/null 2>&1; e=$EPOCHREALTIME
  echo "${s/./} ${e/./}" >> "$work/launcher.txt"
done
for f in true bash hook launcher; do
  awk '{ printf "%.3f\n", ($2 - $1) / 1000 }' "$work/$f.txt" > "$work/$f.ms"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
t50=$(pct "$work/true.ms" 0.50 3); t95=$(pct "$work/true.ms" 0.95 3)
b50=$(pct "$work/bash.ms" 0.50 3); b95=$(pct "$work/bash.ms" 0.95 3)
h50=$(pct "$work/hook.ms" 0.50 3); h95=$(pct "$work/hook.ms" 0.95 3)
l50=$(pct "$work/launcher.ms" 0.50 3); l95=$(pct "$work/launcher.ms" 0.95 3)
echo "payload: $(basename "$payload")  runs: $runs each, alternating  load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-36s %8s %8s %10s\n' "" "p50 ms" "p95 ms" "p50 / true"
printf '%-36s %8s %8s %10s\n' "/bin/true (floor)" "$t50" "$t95" "1.00"
printf '%-36s %8s %8s %10s\n' "bash -c :" "$b50" "$b95" "$(ratio "$b50" "$t50")"
printf '%-36s %8s %8s %10s\n' "compiled hook (installed)" "$h50" "$h95" "$(ratio "$h50" "$t50")"
printf '%-36s %8s %8s %10s\n' "bin/warden dispatch (resident)" "$l50" "$l95" "$(ratio "$l50" "$t50")"
