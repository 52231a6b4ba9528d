package dev.agentwarden.manifest;

/**
 * The manifest shipped with Warden, in force when a project has no {@code .warden/manifest.yaml}.
 * Kept as source text rather than a jar resource: reading a resource opens the jar, which costs a
 * cold dispatch several milliseconds. {@code warden manifest show} and {@code lint} read it too.
 */
final class DefaultManifest {
    private DefaultManifest() {
    }

    static final String YAML = """
# Agent Warden default manifest (schema v1, a superset of agent-config's hook_manifest.yaml).
# A project's .warden/manifest.yaml replaces this file whole; `warden dispatch --manifest FILE`
# replaces both.
schema_version: 1

concerns:
  # Refuses `git commit --no-verify` and friends in shell tool calls.
  block-no-verify:
    script: builtin:block-no-verify
    posture: blocking
    fail_closed: false
    tools: [Bash]

platforms:
  claude:
    pre_tool_use: [block-no-verify]
  cowork:
    pre_tool_use: [block-no-verify]

native_event_aliases:
  claude:
    SessionStart: session_start
    SessionEnd: session_end
    UserPromptSubmit: user_prompt_submit
    PreToolUse: pre_tool_use
    PostToolUse: post_tool_use
    PostToolUseFailure: post_tool_use_failure
    PermissionRequest: permission_request
    Notification: notification
    Stop: stop
    PreCompact: pre_compact
    SubagentStart: subagent_start
    SubagentStop: subagent_stop
  cowork:
    SessionStart: session_start
    SessionEnd: session_end
    UserPromptSubmit: user_prompt_submit
    PreToolUse: pre_tool_use
    PostToolUse: post_tool_use
    PostToolUseFailure: post_tool_use_failure
    PermissionRequest: permission_request
    Notification: notification
    Stop: stop
    PreCompact: pre_compact
    SubagentStart: subagent_start
    SubagentStop: subagent_stop
""";
}
