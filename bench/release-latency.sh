#!/usr/bin/env bash
# The installed release next to the checkout (issue 25): wall time of one Claude Code PreToolUse Bash
# event (the captured payload, default chain), run as bench/dispatch-latency.sh and bench/hook-latency.sh
# run it, on each side:
#   - checkout: bin/warden of this checkout with the JDK on PATH, target/warden.jar, archive in target/cds
#   - release:  target/dist/agent-warden-<version>.tgz installed with `npm install -g --prefix <scratch>`,
#               run through npm's link, on its bundled jlink runtime, archive under the cache's cds/
# Rows per side: `warden dispatch` with WARDEN_RESIDENT=off (own JVM, class-data archive); the PreToolUse
# command `warden install --host claude` writes, through sh -c as Claude Code runs it, with
# WARDEN_RESIDENT=off (the compiled hook runs the one-event JVM plan) and with the resident (the
# compiled hook through the resident's socket). Each side has its own cache (the two jars are the same
# bytes, so they would share a resident). Runs alternate; prints p50 and p95 and the artifact sizes.
#
#   bench/release-latency.sh [RUNS]      default 40 runs each; needs target/dist (mvn -B package)
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
runs="${1:-40}"
version="$(sed -n 's/^version=//p' "$home/target/classes/dev/agentwarden/build.properties")"
tgz="$home/target/dist/agent-warden-$version.tgz"
tarball="$home/target/dist/warden-$version-linux-x64.tar.gz"
if [ ! -f "$tgz" ] || [ ! -f "$tarball" ]; then
  echo "no $tgz or $tarball: run mvn -B package (without -Dwarden.dist.skip)" >&2
  exit 1
fi
checkout_cache="$work/cache-checkout"
release_cache="$work/cache-release"
cleanup() {
  WARDEN_CACHE_DIR="$checkout_cache" "$home/bin/warden" resident stop >/dev/null 2>&1 || true
  WARDEN_CACHE_DIR="$release_cache" "$work/npm/bin/warden" resident stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -m 700 "$checkout_cache" "$release_cache"
npm install -g --prefix "$work/npm" --no-audit --no-fund --loglevel=error "$tgz" >/dev/null

# side CHECKOUT|RELEASE: sets launcher and the cache for it
side() {
  if [ "$1" = checkout ]; then launcher="$home/bin/warden"; export WARDEN_CACHE_DIR="$checkout_cache"
  else launcher="$work/npm/bin/warden"; export WARDEN_CACHE_DIR="$release_cache"; fi
}
installed() { # installed SIDE: the PreToolUse command install writes into a project of that side
  side "$1"
  mkdir -p "$work/$1"
  (cd "$work/$1" && "$launcher" install --host claude >/dev/null)
  python3 -c 'import json, sys
for group in json.load(open(sys.argv[1]))["hooks"]["PreToolUse"]:
    for h in group["hooks"]:
        if "dispatch --host claude" in h["command"]:
            print(h["command"])' "$work/$1/.claude/settings.json"
}
checkout_hook="$(installed checkout)"
release_hook="$(installed release)"
payload="$(scratch_payload "$work/checkout")"

# Warm-up: the plans, the residents (started by the first event of each), and one answer compared.
answers=()
for s in checkout release; do
  side "$s"
  if [ "$s" = checkout ]; then hook="$checkout_hook"; else hook="$release_hook"; fi
  WARDEN_RESIDENT=off sh -c "$hook" < "$payload" >/dev/null 2>&1
  WARDEN_RESIDENT=auto sh -c "$hook" < "$payload" >/dev/null 2>&1
  for _ in $(seq 300); do "$launcher" resident status >/dev/null 2>&1 && break; sleep 0.1; done
  "$launcher" resident status >/dev/null 2>&1 || { echo "the $s resident did not start" >&2; exit 1; }
  sleep 5 # the resident's warm-up
  answers+=("$(WARDEN_RESIDENT=off "$launcher" dispatch --host claude < "$payload")" \
            "$(WARDEN_RESIDENT=off sh -c "$hook" < "$payload")" "$(WARDEN_RESIDENT=auto sh -c "$hook" < "$payload")")
done
for a in "${answers[@]}"; do
  [ "$a" = "${answers[0]}" ] || { echo "answers differ: ${answers[*]}" >&2; exit 1; }
done

ms() { # elapsed milliseconds (3 decimals) of running "$@" with the payload on stdin
  local start end
  start=$EPOCHREALTIME
  "$@" < "$payload" >/dev/null 2>&1
  end=$EPOCHREALTIME
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", (e - s) * 1000 }'
}
for f in c-jvm c-hook c-res r-jvm r-hook r-res; do : > "$work/$f.txt"; done
for _ in $(seq "$runs"); do
  side checkout
  WARDEN_RESIDENT=off ms "$launcher" dispatch --host claude >> "$work/c-jvm.txt"
  WARDEN_RESIDENT=off ms sh -c "$checkout_hook" >> "$work/c-hook.txt"
  WARDEN_RESIDENT=auto ms sh -c "$checkout_hook" >> "$work/c-res.txt"
  side release
  WARDEN_RESIDENT=off ms "$launcher" dispatch --host claude >> "$work/r-jvm.txt"
  WARDEN_RESIDENT=off ms sh -c "$release_hook" >> "$work/r-hook.txt"
  WARDEN_RESIDENT=auto ms sh -c "$release_hook" >> "$work/r-res.txt"
done

echo "commit: $(git -C "$home" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)  runs: $runs each, alternating  load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "checkout java: $(java -version 2>&1 | head -1)  release runtime: $("$work/npm/lib/node_modules/agent-warden/runtime/bin/java" -version 2>&1 | head -1)"
echo "sizes: $(du -h "$tarball" | cut -f1) $(basename "$tarball"), $(du -h "$tgz" | cut -f1) $(basename "$tgz"), installed $(du -sh "$work/npm/lib/node_modules/agent-warden" | cut -f1)"
printf '%-44s %16s %16s\n' "" "checkout p50/p95" "release p50/p95"
row() { printf '%-44s %7s/%-8s %7s/%-8s\n' "$1" "$(pct "$work/$2.txt" 0.50)" "$(pct "$work/$2.txt" 0.95)" \
  "$(pct "$work/$3.txt" 0.50)" "$(pct "$work/$3.txt" 0.95)"; }
row "warden dispatch, own JVM (ms)" c-jvm r-jvm
row "installed hook (sh -c), own JVM (ms)" c-hook r-hook
row "installed hook (sh -c), resident (ms)" c-res r-res
