package dev.agentwarden.manifest;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;

/**
 * The manifest shipped with Warden, in force when a project has no {@code .warden/manifest.yaml}.
 * Kept as source text rather than a jar resource: reading a resource opens the jar, which costs a
 * cold dispatch several milliseconds. {@code warden manifest show} and {@code lint} read it too. Its
 * {@code platforms} section names every host in {@link Hosts#ALL}, and its {@code tools} filters are
 * every host's tool names of the kinds each concern acts on ({@link Hosts#toolNames}): {@link #render}
 * writes it from the host registry.
 *
 * <p>{@link #YAML} is that rendering as a compile-time constant, so a dispatch reads the default
 * manifest without building every host's record (twelve hosts' adapters, installers and tool tables
 * cost an own-JVM dispatch about as much as the rest of its work). {@code DefaultManifestTest} fails
 * when the two differ; {@code -Dwarden.defaultmanifest.write=true} rewrites the constant.
 */
final class DefaultManifest {
    private DefaultManifest() {
    }

    /** {@link #render()}, written by {@code DefaultManifestTest} ({@code -Dwarden.defaultmanifest.write=true}); do not edit by hand. */
    static final String YAML = """
# Agent Warden default manifest (schema v1, a superset of agent-config's hook_manifest.yaml).
# A project's .warden/manifest.yaml replaces this file whole, unless it says `extends: default`
# (then it is laid over this one); `warden dispatch --manifest FILE` replaces both.
schema_version: 1

concerns:
  # Refuses `git commit --no-verify` and friends in shell tool calls.
  block-no-verify:
    script: builtin:block-no-verify
    posture: blocking
    fail_closed: false
    tools: [Bash, bash, powershell, run_commands, run_shell_command, Shell, run_command, launch-process, background_process, Execute]

  # Refuses tool calls that would change Warden's own trust or hooks (`warden trust`, `install`,
  # `uninstall`; edits of its state and cache directories and of the hosts' hook settings files):
  # the user makes those changes in their own terminal.
  protect-warden:
    script: builtin:protect-warden
    posture: blocking
    fail_closed: false
    tools: [Bash, Edit, MultiEdit, NotebookEdit, Write, apply_patch, bash, create, edit, powershell, editor, run_commands, replace, run_shell_command, write_file, notebook_edit, Delete, Shell, StrReplace, run_command, write_code, launch-process, remove-files, save-file, str-replace-editor, multiedit, patch, write, background_process, ApplyPatch, Create, Execute]

  # Subagent lifecycle ledger: one hash-chained line per subagent start and stop under
  # .warden/state/ledger/, one open record per live dispatch under .warden/state/open/. On a host
  # without subagent events (Gemini CLI) it brackets a subagent between the subagent tool's
  # pre_tool_use and post_tool_use instead (basis: tool_bracket). Capture
  # only: never blocks, never warns, allows on every path (an unwritable disk included).
  # Read it with `warden ledger stats` and `warden ledger verify`.
  subagent-ledger:
    script: builtin:subagent-ledger
    posture: shadow
    fail_closed: false
    tools: [Agent, Task, spawn_agent, task, invoke_agent, agent, sub-agent]   # on tool events, only the subagent tools' calls
    ttl: 24h                            # open records older than this are reaped
    stop_loss_arms: [5m, 15m, 30m, 2h]  # a stop records each arm its duration exceeded
    # duration_budgets:                 # per agent type, for the Phase-1 falsifier in `ledger stats`
    #   general-purpose: 15m
    #   "*": 10m

  # Spawn guard on subagent-dispatch tools. In shadow posture it appends one line per spawn with
  # what each candidate would have done and emits nothing. Derive a threshold from those lines with
  # `warden guard derive`, then set `posture: blocking` and `enforce:` to act on it.
  spawn-guard:
    script: builtin:spawn-guard
    posture: shadow
    fail_closed: false
    tools: [Agent, Task, spawn_agent, task, invoke_agent, agent, sub-agent]   # every host's subagent-dispatch tools
    candidates:
      - {label: n2m4, max_depth: 2, max_concurrent: 4}
      - {label: n3m6, max_depth: 3, max_concurrent: 6}
      - {label: n4m8, max_depth: 4, max_concurrent: 8}
    enforce: n2m4
    concurrency_scope: session
    ttl: 24h

# Every host Warden has an adapter for runs the same chains; each host's native event names come
# from Warden's host registry (a manifest's native_event_aliases may add or override them).
platforms:
  claude: &chains
    pre_tool_use: [block-no-verify, protect-warden, spawn-guard]
    subagent_start: [subagent-ledger]
    subagent_stop: [subagent-ledger]
  cowork: *chains
  codex: *chains
  copilot: *chains
  cline: *chains
  gemini:
    pre_tool_use: [block-no-verify, protect-warden, spawn-guard, subagent-ledger]
    post_tool_use: [subagent-ledger]
  qwen: *chains
  cursor: *chains
  windsurf:
    pre_tool_use: [block-no-verify, protect-warden, spawn-guard, subagent-ledger]
    post_tool_use: [subagent-ledger]
  augment:
    pre_tool_use: [block-no-verify, protect-warden, spawn-guard, subagent-ledger]
    post_tool_use: [subagent-ledger]
  opencode: *chains
  kilo: *chains
  droid:
    pre_tool_use: [block-no-verify, protect-warden, spawn-guard, subagent-ledger]
    post_tool_use: [subagent-ledger]
""";

    /** Hex SHA-256 of {@link #YAML}'s UTF-8 bytes (the compiled cache's key), written with it. */
    static final String SHA256 = "e996e01ea7abf6e7cae3a620a0db87e42511647af5aaa87e25716dde639165d9";

    /**
     * {@code YAML.hashCode()} when {@link #SHA256} was written: a dispatch trusts {@code SHA256} only
     * while the text still has this hash (a loop over the text, where SHA-256 costs an interpreted
     * dispatch about a millisecond), and hashes the text itself otherwise.
     */
    static final int YAML_HASH = 1374253173;

    /** The text {@link #render} writes from the host registry, before the {@code platforms} entries. */
    private static final String TEMPLATE = """
# Agent Warden default manifest (schema v1, a superset of agent-config's hook_manifest.yaml).
# A project's .warden/manifest.yaml replaces this file whole, unless it says `extends: default`
# (then it is laid over this one); `warden dispatch --manifest FILE` replaces both.
schema_version: 1

concerns:
  # Refuses `git commit --no-verify` and friends in shell tool calls.
  block-no-verify:
    script: builtin:block-no-verify
    posture: blocking
    fail_closed: false
    tools: <shell tools>

  # Refuses tool calls that would change Warden's own trust or hooks (`warden trust`, `install`,
  # `uninstall`; edits of its state and cache directories and of the hosts' hook settings files):
  # the user makes those changes in their own terminal.
  protect-warden:
    script: builtin:protect-warden
    posture: blocking
    fail_closed: false
    tools: <shell and file-edit tools>

  # Subagent lifecycle ledger: one hash-chained line per subagent start and stop under
  # .warden/state/ledger/, one open record per live dispatch under .warden/state/open/. On a host
  # without subagent events (Gemini CLI) it brackets a subagent between the subagent tool's
  # pre_tool_use and post_tool_use instead (basis: tool_bracket). Capture
  # only: never blocks, never warns, allows on every path (an unwritable disk included).
  # Read it with `warden ledger stats` and `warden ledger verify`.
  subagent-ledger:
    script: builtin:subagent-ledger
    posture: shadow
    fail_closed: false
    tools: <subagent tools>   # on tool events, only the subagent tools' calls
    ttl: 24h                            # open records older than this are reaped
    stop_loss_arms: [5m, 15m, 30m, 2h]  # a stop records each arm its duration exceeded
    # duration_budgets:                 # per agent type, for the Phase-1 falsifier in `ledger stats`
    #   general-purpose: 15m
    #   "*": 10m

  # Spawn guard on subagent-dispatch tools. In shadow posture it appends one line per spawn with
  # what each candidate would have done and emits nothing. Derive a threshold from those lines with
  # `warden guard derive`, then set `posture: blocking` and `enforce:` to act on it.
  spawn-guard:
    script: builtin:spawn-guard
    posture: shadow
    fail_closed: false
    tools: <subagent tools>   # every host's subagent-dispatch tools
    candidates:
      - {label: n2m4, max_depth: 2, max_concurrent: 4}
      - {label: n3m6, max_depth: 3, max_concurrent: 6}
      - {label: n4m8, max_depth: 4, max_concurrent: 8}
    enforce: n2m4
    concurrency_scope: session
    ttl: 24h

# Every host Warden has an adapter for runs the same chains; each host's native event names come
# from Warden's host registry (a manifest's native_event_aliases may add or override them).
platforms:
""";

    /** The default manifest as the host registry has it: {@link #TEMPLATE} with every host's tool names and chains. */
    static String render() {
        return TEMPLATE
                .replace("<shell tools>", tools(ToolKind.SHELL))
                .replace("<shell and file-edit tools>", tools(ToolKind.SHELL, ToolKind.FILE_EDIT))
                .replace("<subagent tools>", tools(ToolKind.SUBAGENT_DISPATCH))
                + platforms();
    }

    /** A flow list of every host's tool names of {@code kinds}: {@code [Bash, run_commands, …]}. */
    private static String tools(ToolKind... kinds) {
        return "[" + String.join(", ", Hosts.toolNames(kinds)) + "]";
    }

    /**
     * The {@code platforms} section: one chain list, anchored under the first host and aliased by the
     * others; a host without subagent events gets the ledger on the subagent tool's pre- and post-tool
     * events instead ({@link #BRACKET_CHAINS}).
     */
    private static String platforms() {
        StringBuilder out = new StringBuilder();
        for (Host host : Hosts.ALL) {
            out.append("  ").append(host.id());
            if (!host.defaultAliases().containsValue(EventName.SUBAGENT_START)) {
                out.append(":\n").append(BRACKET_CHAINS);
            } else {
                out.append(host == Hosts.ALL.get(0) ? ": &chains\n" + CHAINS : ": *chains\n");
            }
        }
        return out.toString();
    }

    private static final String BRACKET_CHAINS = """
    pre_tool_use: [block-no-verify, protect-warden, spawn-guard, subagent-ledger]
    post_tool_use: [subagent-ledger]
""";

    private static final String CHAINS = """
    pre_tool_use: [block-no-verify, protect-warden, spawn-guard]
    subagent_start: [subagent-ledger]
    subagent_stop: [subagent-ledger]
""";
}
