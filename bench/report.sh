#!/usr/bin/env bash
# warden report (issue 31 item 2) on a generated project: LINES decision lines (with "asked") plus LINES ledger
# lines (bench/bulk-gen.py, BULK_ASKED=1), timed whole-process (JVM start included), RUNS rounds; medians printed.
#
#   bench/report.sh [LINES] [RUNS]      default 1,000,000 lines, 5 runs
#   BASE_JAR=/path/to/warden.jar bench/report.sh ...   also times that jar's `report --json` in the same rounds
#
# Rows: `report --json` (decision log read in chunks on all cores, the ledger once for both ledger views),
# `report --html FILE`, and `log --summary` (the decision log alone) as the yardstick; with BASE_JAR, the
# other jar's `report --json` run with the same JVM flags as bin/warden gives a bulk command, alternating
# with this one's so both share the machine's noise. Each row: median and min wall time, and median CPU
# time (user + system, all threads), which moves less with the load than wall time does. Target: report <= 3 s.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
lines="${1:-1000000}"
runs="${2:-5}"
project="${BULK_DIR:-$work/project}"
if [ ! -f "$project/.generated-asked-$lines" ]; then
  rm -rf "$project"
  echo "generating $lines ledger and decision lines in $project ..." >&2
  BULK_ASKED=1 python3 "$here/bulk-gen.py" "$project" "$lines"
  touch "$project/.generated-asked-$lines"
fi
export WARDEN_RESIDENT=off
warden=("$home/bin/warden")
"${warden[@]}" report --project-dir "$project" --json >/dev/null || { echo "report: warden report fails" >&2; exit 1; }
names=(report html summary)
declare -A cmd=(
  [report]="${warden[*]} report --project-dir $project --json"
  [html]="${warden[*]} report --project-dir $project --html $work/r.html"
  [summary]="${warden[*]} log --summary --project-dir $project"
)
if [ -n "${BASE_JAR:-}" ]; then
  # the flags bin/warden gives `report` (ParallelGC, heap, C1 only), without this checkout's class-data archive
  names=(base report html summary)
  cmd[base]="java -XX:+UseParallelGC -Xms256m -Xmx2g -XX:TieredStopAtLevel=1 -XX:-UsePerfData -cp $BASE_JAR dev.agentwarden.Main report --project-dir $project --json"
fi
# time_run NAME: appends wall seconds to $work/NAME and user+sys seconds to $work/NAME.cpu
time_run() {
  /usr/bin/time -f '%e %U %S' -o "$work/t" bash -c "${cmd[$1]}" >/dev/null 2>&1
  read -r wall user sys < "$work/t"
  echo "$wall" >> "$work/$1"
  awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.2f\n", u + s}' >> "$work/$1.cpu"
}
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
for name in "${names[@]}"; do : >"$work/$name"; : >"$work/$name.cpu"; done
for round in $(seq "$runs"); do
  for name in "${names[@]}"; do time_run "$name"; done
  echo "round $round of $runs done" >&2
done
declare -A label=([base]="report --json (BASE_JAR)" [report]="report --json" [html]="report --html FILE"
  [summary]="log --summary (decisions only)")
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $lines decision + $lines ledger lines, $runs runs, $(nproc) cores," \
  "load average before $load_before, after $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| command | median wall s | min wall s | median CPU s (user+sys) |"
echo "|---|---|---|---|"
for name in "${names[@]}"; do
  echo "| ${label[$name]} | $(pct "$work/$name" 0.5 2) | $(sort -n "$work/$name" | head -1) | $(pct "$work/$name.cpu" 0.5 2) |"
done
