#!/usr/bin/env bash
# Installed command hooks before and after, in one alternating run: BASE (another checkout of Warden
# with its jar built) and this checkout, each with its own cache and resident; the compiled hook and
# the bash launcher of each run as Claude Code runs a hook command (sh -c), beside the floors.
# BASE's compiled hook is run bare (as `install --fast-hook` wrote it before the fallback test).
#
#   bench/hook-compare.sh BASE_CHECKOUT [RUNS]     default 200 runs each
set -euo pipefail
BASE="$(cd "$1" && pwd)"
runs="${2:-200}"
NEW="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
# The captured payload, pointed at a scratch project where every row runs (as a host runs its hooks
# in the project), so each event writes its decision line as in real use.
mkdir "$work/proj"
payload=$work/pretooluse-bash.json
python3 -c 'import json, sys
p = json.load(open(sys.argv[1])); p["cwd"] = sys.argv[2]
print(json.dumps(p, separators=(",", ":")))' "$NEW/bench/pretooluse-bash.json" "$work/proj" > "$payload"
trap 'WARDEN_CACHE_DIR="$work/c-base" "$BASE/bin/warden" resident stop >/dev/null 2>&1 || true
      WARDEN_CACHE_DIR="$work/c-new" "$NEW/bin/warden" resident stop >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
cd "$work/proj"
tail=" dispatch --host claude --native-event PreToolUse"
for side in base new; do
  if [ "$side" = base ]; then h="$BASE"; else h="$NEW"; fi
  c="$work/c-$side"; mkdir -m 700 "$c"
  WARDEN_CACHE_DIR="$c" "$h/bin/warden" build-hook > "$work/hook-$side"
  WARDEN_CACHE_DIR="$c" "$h/bin/warden" dispatch --host claude < "$payload" >/dev/null 2>&1 || true
  for _ in $(seq 300); do WARDEN_CACHE_DIR="$c" "$h/bin/warden" resident status >/dev/null 2>&1 && break; sleep 0.1; done
done
# Each resident's warm-up (where it has one) ends before timing, as before a host's first tool call.
for _ in $(seq 100); do grep -q "warm-up ran" "$work/c-new"/resident/*.log 2>/dev/null && break; sleep 0.1; done
for side in base new; do
  echo "$side resident: $(grep -h "warm-up ran" "$work/c-$side"/resident/*.log 2>/dev/null || echo "no warm-up")"
done
bh="$(cat "$work/hook-base")"; nh="$(cat "$work/hook-new")"
cb="WARDEN_CACHE_DIR=$work/c-base; export WARDEN_CACHE_DIR; "
cn="WARDEN_CACHE_DIR=$work/c-new; export WARDEN_CACHE_DIR; "
declare -A cmd=(
  [true]="/bin/true"
  [bash]="bash -c :"
  [base_hook]="$bh$tail"
  [new_hook]="[ -x $nh ] && exec $nh$tail; exec $NEW/bin/warden$tail"
  [base_launcher]="$BASE/bin/warden$tail"
  [new_launcher]="$NEW/bin/warden$tail"
)
declare -A pre=([true]="" [bash]="" [base_hook]="$cb" [new_hook]="$cn" [base_launcher]="$cb" [new_launcher]="$cn")
rows=(true bash base_hook new_hook base_launcher new_launcher)
declare -A label=([true]="sh -c /bin/true" [bash]="sh -c 'bash -c :'" [base_hook]="base: compiled hook (sh -c)"
  [new_hook]="this: installed hook (sh -c)" [base_launcher]="base: bin/warden (sh -c)" [new_launcher]="this: bin/warden (sh -c)")
for r in "${rows[@]}"; do : > "$work/$r.txt"; done
for _ in $(seq "$runs"); do
  s=$EPOCHREALTIME; /bin/true < "$payload" >/dev/null 2>&1; e=$EPOCHREALTIME; echo "${s/./} ${e/./}" >> "$work/floor.txt"
  for r in "${rows[@]}"; do
    c="${pre[$r]}${cmd[$r]}"
    s=$EPOCHREALTIME; sh -c "$c" < "$payload" >/dev/null 2>&1; e=$EPOCHREALTIME
    echo "${s/./} ${e/./}" >> "$work/$r.txt"
  done
done
pct() { sort -n "$1" | awk -v p="$2" '{a[NR]=$1} END {i=int((NR-1)*p+0.5)+1; printf "%.3f", a[i]}'; }
for r in floor "${rows[@]}"; do awk '{ printf "%.3f\n", ($2 - $1) / 1000 }' "$work/$r.txt" > "$work/$r.ms"; done
f50=$(pct "$work/floor.ms" 0.5)
echo "base: $BASE ($(git -C "$BASE" rev-parse --short HEAD 2>/dev/null))  runs: $runs each, alternating  load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-34s %8s %8s %8s\n' "" p50 p95 "/ true"
printf '%-34s %8s %8s %8s\n' "/bin/true (floor)" "$f50" "$(pct "$work/floor.ms" 0.95)" 1.00
for r in "${rows[@]}"; do
  p=$(pct "$work/$r.ms" 0.5)
  printf '%-34s %8s %8s %8s\n' "${label[$r]}" "$p" "$(pct "$work/$r.ms" 0.95)" "$(awk -v a="$p" -v b="$f50" 'BEGIN{printf "%.2f", a/b}')"
done
