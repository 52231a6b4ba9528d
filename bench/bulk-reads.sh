#!/usr/bin/env bash
# Bulk reads (issue 12 item 3): `warden ledger stats`, `guard derive`, `log --summary` and `ledger verify`
# on a generated ledger and decision log, side by side with jq and a Python hashlib chain walk.
#
#   bench/bulk-reads.sh [LINES] [RUNS]      default 1,000,000 lines, 3 runs of each program
#
# bench/bulk-gen.py writes LINES ledger lines (hash-chained, shaped as SubagentLedger and SpawnGuard
# write them, over six monthly segments) and LINES decision lines into a scratch project
# (BULK_DIR=DIR keeps and reuses it). The programs then run in turn, RUNS rounds, each round all of
# them once in the same order, so they share the machine's noise; the table gives each one's median
# wall time (whole process: JVM start included) and the ratio to its yardstick:
#   - stats and derive: jq -c 'select(.event=="subagent_stop") | .duration_ms' over the ledger segments;
#   - log --summary: the same jq over the decision segments;
#   - verify: bench/chain-walk.py, Warden's chain rule in Python (hashlib, json); its --hash-only
#     floor (hash every line, parse nothing) is shown beside it.
# Targets (issue 31): stats, derive <= 0.1 x jq; log --summary <= 0.2 x jq; verify <= 1 x the Python walk,
# and its ratio to the hash-only floor is printed beside it. The load average is printed before and after.
# jq and python3 are needed here only (not by .ci/run); without jq its rows are left out.
#
#   BULK_PROGRAMS="jq_ledger stats derive"  runs only these programs (names as in the table), in the
#                                           script's order; the rows of the others are left out.
#   BASE_HOME=DIR                           also runs DIR/bin/warden (another checkout, built, e.g. main's)
#                                           as stats_base, derive_base, summary_base, verify_base, each
#                                           right after its own row in every round, so both share the noise.
# Each program's CPU time (user + system of the process and its threads) is shown beside its wall time.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
lines="${1:-1000000}"
runs="${2:-3}"
command -v python3 >/dev/null || { echo "bulk-reads: python3 is needed (bulk-gen.py, chain-walk.py)" >&2; exit 2; }
have_jq=1
command -v jq >/dev/null || { have_jq=""; echo "bulk-reads: no jq on this machine; its rows are left out" >&2; }

project="${BULK_DIR:-$work/project}"
if [ ! -f "$project/.generated-$lines" ]; then
  rm -rf "$project"
  echo "generating $lines ledger and decision lines in $project ..." >&2
  python3 "$here/bulk-gen.py" "$project" "$lines"
  touch "$project/.generated-$lines"
fi
ledger=("$project"/.warden/state/ledger/2026-*.jsonl)
decisions=("$project"/.warden/state/decisions/2026-*.jsonl)
export WARDEN_RESIDENT=off
warden=("$home/bin/warden")

# The generated ledger verifies, by Warden and by the Python walk, before anything is timed.
"${warden[@]}" ledger verify --project-dir "$project" >/dev/null || { echo "bulk-reads: ledger verify fails" >&2; exit 1; }
if [ -z "${BULK_PROGRAMS:-}" ] || [[ " $BULK_PROGRAMS " == *" python_walk "* ]]; then
  python3 "$here/chain-walk.py" "$project" >/dev/null || { echo "bulk-reads: chain-walk.py fails" >&2; exit 1; }
fi

jq_filter='select(.event=="subagent_stop") | .duration_ms'
declare -A cmd=(
  [jq_ledger]="jq -c '$jq_filter' ${ledger[*]}"
  [stats]="${warden[*]} ledger stats --project-dir $project"
  [derive]="${warden[*]} guard derive --project-dir $project"
  [jq_decisions]="jq -c '$jq_filter' ${decisions[*]}"
  [summary]="${warden[*]} log --summary --project-dir $project"
  [python_walk]="python3 $here/chain-walk.py $project"
  [python_hash_only]="python3 $here/chain-walk.py $project --hash-only"
  [verify]="${warden[*]} ledger verify --project-dir $project"
)
base=()
if [ -n "${BASE_HOME:-}" ]; then
  base=("$BASE_HOME/bin/warden")
  [ -f "$BASE_HOME/target/warden.jar" ] || { echo "bulk-reads: $BASE_HOME/target/warden.jar is missing (build it)" >&2; exit 2; }
  "${base[@]}" ledger verify --project-dir "$project" >/dev/null || { echo "bulk-reads: BASE_HOME's ledger verify fails" >&2; exit 1; }
  cmd[stats_base]="${base[*]} ledger stats --project-dir $project"
  cmd[derive_base]="${base[*]} guard derive --project-dir $project"
  cmd[summary_base]="${base[*]} log --summary --project-dir $project"
  cmd[verify_base]="${base[*]} ledger verify --project-dir $project"
fi
# A class-data archive the runs above started training in the background is done before anything is timed.
for dir in "$home" ${BASE_HOME:+"$BASE_HOME"}; do
  for _ in $(seq 240); do
    compgen -G "$dir/target/cds/.training-*" >/dev/null || break
    sleep 0.5
  done
done
all=(jq_ledger stats stats_base derive derive_base jq_decisions summary summary_base verify verify_base python_walk
     python_hash_only)
order=()
for name in "${all[@]}"; do
  case "$name" in jq_*) [ -n "$have_jq" ] || continue ;; esac
  case "$name" in *_base) [ -n "${BASE_HOME:-}" ] || continue ;; esac
  [ -z "${BULK_PROGRAMS:-}" ] || [[ " $BULK_PROGRAMS " == *" ${name%_base} "* ]] || continue
  order+=("$name")
done

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
for name in "${order[@]}"; do : > "$work/$name"; : > "$work/$name.cpu"; done
TIMEFORMAT='%U %S'
for round in $(seq "$runs"); do
  for name in "${order[@]}"; do
    start=$EPOCHREALTIME
    { time eval "${cmd[$name]}" >/dev/null 2>"$work/stderr"; } 2>"$work/times"
    end=$EPOCHREALTIME
    awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f\n", b - a}' >> "$work/$name"
    awk '{printf "%.3f\n", $1 + $2}' "$work/times" >> "$work/$name.cpu"
  done
  echo "round $round of $runs done" >&2
done

median() { pct "$work/$1" 0.5 2; }
ratio() { awk -v a="$(median "$1")" -v b="$(median "$2")" 'BEGIN {printf "%.3f", a / b}'; }
printf '%s, %s ledger lines (%s MB), %s decision lines (%s MB), %s runs each, medians of wall time\n' \
  "$(date -u '+%Y-%m-%d %H:%M UTC')" "$lines" "$(du -cm "${ledger[@]}" | tail -1 | cut -f1)" "$lines" \
  "$(du -cm "${decisions[@]}" | tail -1 | cut -f1)" "$runs"
printf '%-28s %9s %9s %9s %12s %10s %7s\n' program "median s" "min s" "CPU s" yardstick ratio target
ran() { [ -f "$work/$1" ] && [ -s "$work/$1" ]; }
row() { # name yardstick target
  ran "$1" || return 0
  local times; times="$(printf '%9s %9s %9s' "$(median "$1")" "$(pct "$work/$1" 0 2)" "$(median "$1.cpu")")"
  if [ -z "$2" ] || ! ran "$2"; then printf '%-28s %s\n' "$1" "$times"; return; fi
  local r; r="$(ratio "$1" "$2")"
  printf '%-28s %s %12s %10s %7s %s\n' "$1" "$times" "$2" "$r" "<= $3" \
    "$(awk -v r="$r" -v t="$3" 'BEGIN {print (r <= t ? "met" : "NOT met")}')"
}
row jq_ledger "" ""
row stats jq_ledger 0.1
row stats_base jq_ledger 0.1
row derive jq_ledger 0.1
row derive_base jq_ledger 0.1
row jq_decisions "" ""
row summary jq_decisions 0.2
row summary_base jq_decisions 0.2
row python_walk "" ""
row python_hash_only "" ""
row verify python_walk 1.0
row verify_base python_walk 1.0
if ran verify && ran python_hash_only; then
  printf '%-28s %29s %12s %10s\n' "verify vs the hash-only floor" "" python_hash_only "$(ratio verify python_hash_only)"
fi
echo "load average: before $load_before, after $(cut -d' ' -f1-3 /proc/loadavg)"
