#!/usr/bin/env bash
# The patterns below are bin/warden lines, quoted literally.
# shellcheck disable=SC2016,SC1003
# Where the time of one steady-state `bin/warden dispatch` goes (the resident answers): a copy of
# bin/warden with an EPOCHREALTIME stamp inserted before each step runs RUNS times on the captured
# Claude Code PreToolUse Bash payload; prints the median of each step, the whole process wall time,
# and `bash -c :` for the cost of starting bash.
#
#   bench/launcher-breakdown.sh [RUNS]        default 100
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
runs="${1:-100}"
payload="$here/pretooluse-bash.json"
cleanup() {
  "$home/bin/warden" resident stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -m 700 "$WARDEN_CACHE_DIR"
cd "$work"
# The stamped copy shares the jar (so the same resident key) through links.
mkdir -p "$work/wh/bin"
ln -s "$home/target" "$work/wh/target"
ln -s "$home/src" "$work/wh/src"
stamp() { # stamp LABEL PATTERN: a stamp line before the first line starting with PATTERN
  awk -v label="$1" -v pat="$2" 'index($0, pat) == 1 && !done { match($0, /^ */); printf "%sS+=(\"%s $EPOCHREALTIME\")\n", substr($0, 1, RLENGTH), label; done = 1 } { print }'
}
stamp "start" 'src="${BASH_SOURCE[0]}"' < "$home/bin/warden" \
  | stamp "find java, check jar" 'archive_dir="$home/target/cds"' \
  | stamp "source launcher facts" 'base_flags=(' \
  | stamp "java facts, jar hash" 'cache_root=' \
  | stamp "define forward, connect, start_resident" '# ---- The compiled hook' \
  | stamp "define build_hook; stale-hook check" '# HTTP hooks (warden install --transport http)' \
  | stamp "HTTP hook token check (SessionStart only)" 'if [ "${1:-}" = "dispatch" ] && [ -z "$replayed" ]' \
  | stamp "endpoint and process checks" '  local -a rec=("warden-forward/1"' \
  | stamp "records: argv, env walk" '  # What a JVM of its own would pass on' \
  | stamp "records: umask, nice, limits" '  local had_lc=' \
  | stamp "read stdin" '  local length=$((1 + ${#payload})) r' \
  | stamp "connect (watchdog fork)" '    IFS= read -r -t 2 -u 3 line && [ "$line" = "$fact_greeting$proof" ]' \
  | stamp "proof" '    if [ -z "$unproven" ] \' \
  | stamp "send the event" '      IFS= read -r -t "$answer_seconds" -u 3 line' \
  | stamp "answer (resident runs the chain)" '  if [ "$status" -eq 0 ]; then' \
  | awk 'NR == 1 { print; print "S=(); trap '\''printf \"%s\\n\" \"${S[@]}\" \"end $EPOCHREALTIME\" > \"$WARDEN_STAMPS\"'\'' EXIT"; next } { print }' \
  > "$work/wh/bin/warden"
chmod +x "$work/wh/bin/warden"
"$home/bin/warden" dispatch --host claude < "$payload" >/dev/null 2>&1 || true
for _ in $(seq 300); do
  "$home/bin/warden" resident status >/dev/null 2>&1 && break
  sleep 0.1
done
export WARDEN_STAMPS="$work/stamps"
: > "$work/all"
: > "$work/bash"
for i in $(seq "$runs"); do
  s=$EPOCHREALTIME
  "$work/wh/bin/warden" dispatch --host claude < "$payload" >/dev/null 2>&1
  e=$EPOCHREALTIME
  { echo "spawn $s"; cat "$WARDEN_STAMPS"; echo "exit $e"; } | awk -v run="$i" '{ t = $NF; $NF = ""; sub(/ $/, ""); if (NR > 1) printf "%s\t%d\t%s\t%.3f\n", run, NR - 1, $0, (t - pt) * 1000; pt = t }' >> "$work/all"
  s=$EPOCHREALTIME; bash -c : < "$payload" >/dev/null 2>&1; e=$EPOCHREALTIME
  awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f\n", (e - s) * 1000 }' >> "$work/bash"
done
echo "runs: $runs  load: $(cut -d' ' -f1-3 /proc/loadavg)  bash: ${BASH_VERSION}"
printf '%-48s %9s\n' "step (time since the previous stamp)" "p50 ms"
steps="$(cut -f2 "$work/all" | sort -n | uniq | tail -1)"
for k in $(seq "$steps"); do
  name="$(awk -F'\t' -v k="$k" '$2 == k { print $3; exit }' "$work/all")"
  case "$name" in
    start) name="fork, exec, bash start" ;;
    end) name="print the answer" ;;
    exit) name="exit, reaped by the caller" ;;
  esac
  awk -F'\t' -v k="$k" '$2 == k { print $4 }' "$work/all" > "$work/step"
  printf '%-48s %9s\n' "$name" "$(pct "$work/step" 0.50 3)"
done
awk -F'\t' '{ s[$1] += $4 } END { for (r in s) printf "%.3f\n", s[r] }' "$work/all" > "$work/whole"
printf '%-48s %9s\n' "whole process (wall)" "$(pct "$work/whole" 0.50 3)"
printf '%-48s %9s\n' "bash -c : (for comparison)" "$(pct "$work/bash" 0.50 3)"
