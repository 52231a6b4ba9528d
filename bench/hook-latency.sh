#!/usr/bin/env bash
# Wall time of the installed command hook, side by side with the floor of any hook process:
#   - /bin/true                          the floor: fork and exec of a program that does nothing
#   - sh -c /bin/true                    the floor as a host that runs commands through sh (Claude Code)
#   - bash -c :                          starting bash
#   - installed hook (sh -c)             exactly what `warden install --host claude` writes for
#                                        PreToolUse where cc exists, run as Claude Code runs it
#                                        (sh -c): the compiled client behind its shell test, through
#                                        the resident's Unix socket
#   - installed --no-fast-hook (sh -c)   the same for `install --no-fast-hook`: the bash launcher
# Every row gets the captured Claude Code PreToolUse Bash payload on stdin, its cwd pointed at the
# bench's own scratch project (where the hook is installed, and where it runs, as a host runs it), so
# every event writes its decision line there as in real use; they run alternately, the resident
# answering both Warden rows. Prints p50 and p95 and the p50 ratios to /bin/true.
#
#   bench/hook-latency.sh [RUNS]         default 200 runs each
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
runs="${1:-200}"
cleanup() {
  "$home/bin/warden" resident stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -m 700 "$WARDEN_CACHE_DIR"
cd "$work"
# The commands install writes, read back from the settings files (both projects have no manifest:
# the shipped default is in force).
installed() { # installed DIR [install options]: the PreToolUse command install writes into DIR
  local dir="$1"
  shift
  mkdir -p "$dir"
  (cd "$dir" && "$home/bin/warden" install --host claude --no-train "$@" >/dev/null)
  python3 -c 'import json, sys
for group in json.load(open(sys.argv[1]))["hooks"]["PreToolUse"]:
    for h in group["hooks"]:
        if "dispatch --host claude" in h["command"]:
            print(h["command"])' "$dir/.claude/settings.json"
}
fast_cmd="$(installed "$work/fast")"
plain_cmd="$(installed "$work/plain" --no-fast-hook)"
# The captured payload names the capturing machine's project: point it at the scratch project.
payload="$(scratch_payload "$work/fast")"
cd "$work/fast"
case "$fast_cmd" in "[ -x "*) ;; *) echo "install wrote no compiled hook (no cc?): $fast_cmd" >&2; exit 1 ;; esac
hook="${fast_cmd#\[ -x }"; hook="${hook%% *}"
"$home/bin/warden" dispatch --host claude < "$payload" >/dev/null 2>&1 || true
for _ in $(seq 300); do
  "$home/bin/warden" resident status >/dev/null 2>&1 && break
  sleep 0.1
done
"$home/bin/warden" resident status >/dev/null 2>&1 || { echo "the resident server did not start" >&2; exit 1; }
# A host's first tool call comes seconds after the SessionStart that started the resident: let its
# warm-up end (it stops by itself within a few seconds) before timing, and show how it ended.
for _ in $(seq 100); do
  grep -q "warm-up ran" "$WARDEN_CACHE_DIR"/resident/*.log 2>/dev/null && break
  sleep 0.1
done
warmup="$(grep -h "warm-up ran" "$WARDEN_CACHE_DIR"/resident/*.log 2>/dev/null || echo "no warm-up reported")"
expected="$("$home/bin/warden" dispatch --host claude < "$payload" 2>/dev/null)"
got="$(sh -c "$fast_cmd" < "$payload" 2>/dev/null)"
[ "$expected" = "$got" ] || { echo "the installed hook answered '$got', bin/warden '$expected'" >&2; exit 1; }
# The installed hook answers through the resident: sh, then the compiled hook, no other program.
if command -v strace >/dev/null; then
  execs="$(strace -f -e trace=execve -o "$work/execs" sh -c "$fast_cmd" < "$payload" >/dev/null 2>&1; grep -c 'execve(' "$work/execs")"
  [ "$execs" = 2 ] || { echo "the installed hook ran $execs programs (sh and $hook expected): it fell back to bin/warden" >&2; exit 1; }
  # and reaches it through its Unix socket, not the port
  strace -f -e trace=connect -o "$work/connects" sh -c "$fast_cmd" < "$payload" >/dev/null 2>&1
  grep -q 'AF_UNIX.*\.sock"' "$work/connects" || { echo "the installed hook did not connect to the resident's socket: $(cat "$work/connects")" >&2; exit 1; }
fi

# Times go to files as microseconds; the loop itself only runs the programs.
rows=(true shtrue bash hook launcher)
for f in "${rows[@]}"; do : > "$work/$f.txt"; done
for _ in $(seq "$runs"); do
  s=$EPOCHREALTIME; /bin/true < "$payload" >/dev/null 2>&1; e=$EPOCHREALTIME
  echo "${s/./} ${e/./}" >> "$work/true.txt"
  s=$EPOCHREALTIME; sh -c /bin/true < "$payload" >/dev/null 2>&1; e=$EPOCHREALTIME
  echo "${s/./} ${e/./}" >> "$work/shtrue.txt"
  s=$EPOCHREALTIME; bash -c : < "$payload" >/dev/null 2>&1; e=$EPOCHREALTIME
  echo "${s/./} ${e/./}" >> "$work/bash.txt"
  s=$EPOCHREALTIME; sh -c "$fast_cmd" < "$payload" >/dev/null 2>&1; e=$EPOCHREALTIME
  echo "${s/./} ${e/./}" >> "$work/hook.txt"
  s=$EPOCHREALTIME; sh -c "$plain_cmd" < "$payload" >/dev/null 2>&1; e=$EPOCHREALTIME
  echo "${s/./} ${e/./}" >> "$work/launcher.txt"
done
for f in "${rows[@]}"; do
  awk '{ printf "%.3f\n", ($2 - $1) / 1000 }' "$work/$f.txt" > "$work/$f.ms"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
t50=$(pct "$work/true.ms" 0.50 3)
echo "payload: $(basename "$payload")  runs: $runs each, alternating  load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "installed hook: $fast_cmd"
echo "resident: ${warmup#warden resident: }"
printf '%-40s %8s %8s %10s\n' "" "p50 ms" "p95 ms" "p50 / true"
row() { # row LABEL FILE
  local p50 p95
  p50=$(pct "$work/$2.ms" 0.50 3); p95=$(pct "$work/$2.ms" 0.95 3)
  printf '%-40s %8s %8s %10s\n' "$1" "$p50" "$p95" "$(ratio "$p50" "$t50")"
}
row "/bin/true (floor)" true
row "sh -c /bin/true (the host's shell)" shtrue
row "bash -c :" bash
row "installed hook, sh -c (compiled)" hook
row "installed --no-fast-hook, sh -c" launcher
lines="$(find "$work/fast" -path "*decisions*" -name "*.jsonl" -exec cat {} + 2>/dev/null | wc -l)"
echo "decision lines written in the scratch project: $lines"
