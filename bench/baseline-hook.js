#!/usr/bin/env node
// Baseline for bench/dispatch-latency.sh: what a Node.js hook does for the same event. Reads the
// Claude Code PreToolUse payload from stdin, runs the same default chain (block-no-verify on Bash;
// spawn-guard would only look at Agent/Task), and prints the same verdict: nothing for no opinion,
// a permissionDecision deny otherwise.
'use strict';
const NO_VERIFY = /\bgit\b[^;&|\n]*\s(?:--no-verify\b|commit\b[^;&|\n]*\s-[a-zA-Z]*n[a-zA-Z]*\b)/;
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  let payload;
  try {
    payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    process.exit(0);
  }
  const command = payload && payload.tool_name === 'Bash' && payload.tool_input ? payload.tool_input.command : null;
  if (typeof command === 'string' && NO_VERIFY.test(command)) {
    process.stdout.write(JSON.stringify({hookSpecificOutput: {hookEventName: 'PreToolUse', permissionDecision: 'deny',
      permissionDecisionReason: '[warden] git hooks must not be skipped: remove --no-verify / -n and fix what the hook reports'}}));
  }
  process.exit(0);
});
