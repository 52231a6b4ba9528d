package dev.agentwarden.rule;

import dev.agentwarden.event.EventName;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One field of the event view a rule reads (docs/rules.md lists them). A field that only some
 * events carry names them; a rule reading it is a lint error on any other event.
 */
public enum RuleField {
    HOST("host", Type.STRING, Seen.ALWAYS, "the host id (claude, codex, gemini, ...)"),
    EVENT("event", Type.STRING, Seen.ALWAYS, "the canonical event (pre_tool_use, user_prompt_submit, ...)"),
    TOOL_NAME("tool.name", Type.STRING, Seen.TOOL, "the host's own tool name (Bash, run_shell_command, mcp__github__create_issue)"),
    TOOL_KIND("tool.kind", Type.STRING, Seen.TOOL, "what the tool does: shell, edit, read, subagent, mcp or other"),
    TOOL_INPUT("tool.input", Type.MAP, Seen.TOOL, "the tool input as the host sent it (map of string to any JSON value)"),
    COMMAND("command", Type.STRING, Seen.TOOL, "the shell command the tool call would run, or \"\""),
    WORDS("words", Type.LIST, Seen.TOOL, "every word of the command, in order, as Warden's shell parser reads it"),
    COMMANDS("commands", Type.LIST, Seen.TOOL, "the first word of each simple command (git, rm, npm ...)"),
    PATHS("paths", Type.LIST, Seen.TOOL, "the files the tool call names, relative to the project root when inside it"),
    PROMPT("prompt", Type.STRING, Seen.PROMPT, "the user's prompt"),
    SESSION_ID("session.id", Type.STRING, Seen.ALWAYS, "the host's session id, or \"\""),
    SESSION_STRIKES("session.strikes", Type.INT, Seen.ALWAYS,
            "events of this session some concern refused (strikes) within the rule's escalate.within (10m without one); 0 without a session id or in replay"),
    SUBAGENT_DEPTH("subagent.depth", Type.INT, Seen.ALWAYS, "0 in the main agent, 1 inside a subagent the host names"),
    MCP_SERVER("mcp.server", Type.STRING, Seen.TOOL, "the MCP server of an MCP tool in any host's spelling (github in mcp__github__create_issue, mcp_github_create_issue, MCP:github:create_issue), or \"\""),
    MCP_TOOL("mcp.tool", Type.STRING, Seen.TOOL, "the MCP server's own tool name (create_issue), or \"\""),
    MCP_NAME("mcp.name", Type.STRING, Seen.TOOL, "the MCP tool's canonical name mcp__<server>__<tool> in every host's spelling, or \"\""),
    MCP_DRIFT_KNOWN_SERVER("mcp.drift.known_server", Type.BOOL, Seen.TOOL,
            "the MCP tool's server is in the preregistered baseline snapshot (the rule's prereg)"),
    MCP_DRIFT_CHANGED("mcp.drift.changed", Type.BOOL, Seen.TOOL,
            "the MCP tool's hash (description, schema, ...) in the newest stored snapshot differs from the baseline's, or it is in only one");

    /** A field's CEL type. */
    public enum Type {
        STRING("string"), INT("int"), BOOL("bool"), LIST("list(string)"), MAP("map(string, dyn)");

        private final String cel;

        Type(String cel) {
            this.cel = cel;
        }

        /** The type as CEL writes it. */
        public String cel() {
            return cel;
        }
    }

    /** Which events carry a field. */
    enum Seen {
        ALWAYS, TOOL, PROMPT;
    }

    static final Set<EventName> TOOL_EVENTS = Set.of(EventName.PRE_TOOL_USE, EventName.POST_TOOL_USE,
            EventName.POST_TOOL_USE_FAILURE, EventName.PERMISSION_REQUEST);
    static final Set<EventName> PROMPT_EVENTS = Set.of(EventName.USER_PROMPT_SUBMIT);

    private final String wire;
    private final Type type;
    private final Seen seen;
    private final String meaning;

    RuleField(String wire, Type type, Seen seen, String meaning) {
        this.wire = wire;
        this.type = type;
        this.seen = seen;
        this.meaning = meaning;
    }

    /** The name a rule writes ({@code tool.name}). */
    public String wire() {
        return wire;
    }

    public Type type() {
        return type;
    }

    /** What it holds, in words. */
    public String meaning() {
        return meaning;
    }

    /** Whether {@code event} carries this field. */
    public boolean seenOn(EventName event) {
        switch (seen) {
            case TOOL:
                return TOOL_EVENTS.contains(event);
            case PROMPT:
                return PROMPT_EVENTS.contains(event);
            default:
                return true;
        }
    }

    /** Whether this is an inventory drift fact (needs the rule's {@code prereg}). */
    boolean drift() {
        return this == MCP_DRIFT_KNOWN_SERVER || this == MCP_DRIFT_CHANGED;
    }

    /** The events that carry it, in words. */
    public String seenOnWords() {
        switch (seen) {
            case TOOL:
                return "tool events (pre_tool_use, post_tool_use, post_tool_use_failure, permission_request)";
            case PROMPT:
                return "user_prompt_submit";
            default:
                return "every event";
        }
    }

    /** The field a rule names {@code wire}, or {@code null}. */
    static RuleField of(String wire) {
        for (RuleField f : values()) {
            if (f.wire.equals(wire)) {
                return f;
            }
        }
        return null;
    }

    /** Every field's name. */
    static List<String> names() {
        List<String> out = new ArrayList<>();
        for (RuleField f : values()) {
            out.add(f.wire);
        }
        return out;
    }
}
