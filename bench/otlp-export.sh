#!/usr/bin/env bash
# `warden export --otlp` (issue 31 item 4) on a generated project: LINES decision lines and LINES
# ledger lines (bench/bulk-gen.py), sent to a local OTLP/HTTP sink (bench/otlp-sink.py: answers 200
# to every request and counts the bytes) as the collector, RUNS times; prints the median wall time (JVM start included), the
# spans and log records the command reported, and the bytes the sink took.
#
#   bench/otlp-export.sh [LINES] [RUNS]      default 100,000 lines, 3 runs
set -euo pipefail
source "$(dirname "$0")/lib.sh"
lines="${1:-100000}"
runs="${2:-3}"
command -v python3 >/dev/null || { echo "otlp-export: python3 is needed (bulk-gen.py, the sink)" >&2; exit 2; }

project="${BULK_DIR:-$work/project}"
if [ ! -f "$project/.generated-$lines" ]; then
  rm -rf "$project"
  echo "generating $lines ledger and decision lines in $project ..." >&2
  python3 "$here/bulk-gen.py" "$project" "$lines"
  touch "$project/.generated-$lines"
fi

python3 "$here/otlp-sink.py" "$work/sink.port" "$work/sink.totals" &
sink=$!
trap 'kill $sink 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do [ -s "$work/sink.port" ] && break; sleep 0.1; done
port="$(cat "$work/sink.port")"
sink_bytes() { awk '{print $2}' "$work/sink.totals" 2>/dev/null || echo 0; }

: > "$work/times"
for r in $(seq 1 "$runs"); do
  before="$(sink_bytes)"
  t0=$(date +%s%N)
  out="$(java -jar "$home/target/warden.jar" export --otlp "http://127.0.0.1:$port" --project-dir "$project")"
  t1=$(date +%s%N)
  echo $(( (t1 - t0) / 1000000 )) >> "$work/times"
  echo "run $r: $(( (t1 - t0) / 1000000 )) ms; $out; sink took $(( $(sink_bytes) - before )) bytes" >&2
done
echo "warden export, $lines decision + $lines ledger lines: median $(pct "$work/times" 0.5 0) ms over $runs runs"
