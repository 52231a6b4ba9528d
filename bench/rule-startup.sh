#!/usr/bin/env bash
# Own-JVM start-up cost of a manifest with one rule against the same manifest without it: wall time of
# `bin/warden dispatch --host claude` with WARDEN_RESIDENT=off (one JVM per event, the class-data
# archive as bin/warden trains it) on the captured Claude Code PreToolUse Bash payload. Both
# manifests extend the shipped default; the rule one adds one builtin:rule to pre_tool_use, which
# does not fire on the payload. CEL loads and the rule compiles in every such JVM (a rule is
# compiled once per process; the compiled-manifest cache holds its source). Runs alternate so both
# see the same machine noise; prints p50, p95 and the p50 difference.
#
#   bench/rule-startup.sh [RUNS]        default 20 runs each
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
runs="${1:-20}"
payload="$(scratch_payload "$work")"
cd "$work"
cat > "$work/plain.yaml" <<'YAML'
schema_version: 1
extends: default
YAML
cat > "$work/rule.yaml" <<'YAML'
schema_version: 1
extends: default
concerns:
  no-force-push:
    script: builtin:rule
    when: 'tool.kind == "shell" && "git" in commands && "--force" in words'
    action: deny
    reason: "force push refused: {command}"
platforms:
  claude:
    pre_tool_use: [no-force-push]
YAML
"$home/bin/warden" train-archive >/dev/null 2>&1 || true
for m in plain rule; do
  WARDEN_RESIDENT=off "$home/bin/warden" dispatch --host claude --manifest "$work/$m.yaml" < "$payload" > "$work/$m.out" 2> "$work/$m.err" || true
done
if grep -q . "$work/rule.err"; then echo "rule manifest stderr:" >&2; cat "$work/rule.err" >&2; fi
: > "$work/plain.ms"; : > "$work/rule.ms"
for _ in $(seq "$runs"); do
  for m in plain rule; do
    s=$(date +%s%N)
    WARDEN_RESIDENT=off "$home/bin/warden" dispatch --host claude --manifest "$work/$m.yaml" < "$payload" > /dev/null 2>&1 || true
    e=$(date +%s%N)
    echo "$(( (e - s) / 1000000 ))" >> "$work/$m.ms"
  done
done
printf '%-44s %8s %8s\n' "own JVM dispatch, PreToolUse Bash" "p50 ms" "p95 ms"
printf '%-44s %8s %8s\n' "manifest without a rule (extends default)" "$(pct "$work/plain.ms" 0.5 0)" "$(pct "$work/plain.ms" 0.95 0)"
printf '%-44s %8s %8s\n' "same + one builtin:rule on pre_tool_use" "$(pct "$work/rule.ms" 0.5 0)" "$(pct "$work/rule.ms" 0.95 0)"
printf 'p50 difference: %s ms\n' "$(( $(pct "$work/rule.ms" 0.5 0) - $(pct "$work/plain.ms" 0.5 0) ))"
