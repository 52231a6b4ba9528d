#!/usr/bin/env bash
# warden report (issue 31 item 2) on a generated project: LINES decision lines (with "asked") plus LINES ledger
# lines (bench/bulk-gen.py, BULK_ASKED=1), timed whole-process (JVM start included), RUNS rounds; medians printed.
#
#   bench/report.sh [LINES] [RUNS]      default 1,000,000 lines, 5 runs
#
# Rows: `report --json` (decision log read in chunks on all cores, ledger read twice: stats and guard derive),
# `report --html FILE`, and `log --summary` (the decision log alone) as the yardstick. Target: report <= 3 s.
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

time_ms() { local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
: >"$work/report" ; : >"$work/html" ; : >"$work/summary"
for _ in $(seq "$runs"); do
  time_ms "${warden[@]}" report --project-dir "$project" --json >>"$work/report"
  time_ms "${warden[@]}" report --project-dir "$project" --html "$work/r.html" >>"$work/html"
  time_ms "${warden[@]}" log --summary --project-dir "$project" >>"$work/summary"
done
echo "| warden report on $lines decision + $lines ledger lines ($runs runs, $(nproc) cores) | median ms | min ms |"
echo "|---|---|---|"
for row in "report --json:report" "report --html:html" "log --summary (decisions only):summary"; do
  echo "| ${row%%:*} | $(pct "$work/${row##*:}" 0.5 0) | $(sort -n "$work/${row##*:}" | head -1) |"
done
