package dev.agentwarden.host.claude;

import dev.agentwarden.verdict.Verdict;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.host.HostAdapter;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.host.ToolInputs;
import dev.agentwarden.host.ToolNames;
import dev.agentwarden.json.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Claude Code's command-hook protocol; Cowork runs the same CLI and shares it, and Codex speaks a
 * stricter {@link Dialect} of it.
 *
 * <p>Output is always exit 0 with at most one JSON object on stdout. No opinion is no output (never
 * an explicit allow, which would skip the host's own permission prompt). A block is rendered in the
 * event's own channel: {@code permissionDecision: "deny"} on PreToolUse, {@code decision: "block"}
 * where the host honours it. On events that cannot be blocked the block is downgraded, visibly, to
 * context for the model, or to a {@code systemMessage} for the user where there is no context
 * channel. A halt is {@code continue: false} with a {@code stopReason} on every event; where the
 * event decides whether an action runs (PreToolUse, PermissionRequest) it also carries that event's
 * deny, because Claude Code runs the tool before it honours {@code continue: false} there (and a
 * permission request's deny also sets {@code interrupt: true}, which ends the agent's turn). An
 * ask is {@code permissionDecision: "ask"} where the dialect has it; on a permission request it is
 * no opinion (the host's own prompt is the question); elsewhere it is refused as a block, the safe
 * side of a question the host cannot put. Each downgrade says so on stderr.
 *
 * <p>Normalization reads Claude's snake_case keys; for the ledger's agent fields it also accepts the
 * camelCase spellings Claude-compatible hosts send ({@code agentId}, {@code subagent_type}, …).
 */
public final class ClaudeAdapter implements HostAdapter {

    /** Claude Code caps hook output strings at this many characters and spills the rest to a file. */
    public static final int OUTPUT_CAP_CHARS = 10_000;

    /** Claude Code's tool names by kind. */
    public static final ToolNames TOOLS = new ToolNames(Set.of("Bash"), Set.of("Agent", "Task"),
            Set.of("Write", "Edit", "MultiEdit", "NotebookEdit"), Set.of("Read", "NotebookRead"), "mcp__");

    private static final String PREFIX = "[warden] ";

    /** Events whose {@code hookSpecificOutput} has a deny and no {@code additionalContext} (the host would drop the answer). */
    private static final Set<String> DENY_WITHOUT_CONTEXT = Set.of("PreSkillShellCommand", "PreModelSwitch");

    /** How a block is expressed per native event; events missing from a dialect cannot be blocked. */
    public enum BlockChannel { PERMISSION_DENY, DECISION_BLOCK, PERMISSION_REQUEST_DENY }

    /**
     * One host's variant of the Claude-style protocol.
     *
     * @param block        the block channel per native event
     * @param context      events whose {@code hookSpecificOutput.additionalContext} reaches the model
     * @param haltAsDeny   events that reject {@code continue: false}: a halt is their block instead
     * @param haltDenies   events where {@code continue: false} alone lets the action run: a halt is
     *                     their block plus {@code continue: false}
     * @param noOutput     events whose output the host never reads: a verdict there is a stderr note
     * @param jsonRequired events where "no opinion" must still be a JSON object ({@code {}})
     * @param ask          events that take {@code permissionDecision: "ask"}
     * @param askDefers    events where no opinion already lets the host ask the user itself
     */
    public record Dialect(Map<String, BlockChannel> block, Set<String> context, Set<String> haltAsDeny,
                          Set<String> haltDenies, Set<String> noOutput, Set<String> jsonRequired, Set<String> ask,
                          Set<String> askDefers) {
    }

    /** Claude Code's (and Cowork's) dialect. */
    public static final Dialect CLAUDE = new Dialect(
            Map.of(
                    "PreToolUse", BlockChannel.PERMISSION_DENY,
                    "UserPromptSubmit", BlockChannel.DECISION_BLOCK,
                    "Stop", BlockChannel.DECISION_BLOCK,
                    "SubagentStop", BlockChannel.DECISION_BLOCK,
                    "PostToolUse", BlockChannel.DECISION_BLOCK,
                    "PermissionRequest", BlockChannel.PERMISSION_REQUEST_DENY,
                    "PreSkillShellCommand", BlockChannel.PERMISSION_DENY,
                    "PreModelSwitch", BlockChannel.PERMISSION_DENY),
            Set.of("PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "SessionStart",
                    "SubagentStart", "Stop", "SubagentStop"),
            Set.of(), Set.of("PreToolUse", "PermissionRequest", "PreSkillShellCommand", "PreModelSwitch"), Set.of(), Set.of(),
            Set.of("PreToolUse"), Set.of("PermissionRequest"));

    /** Where Claude Code runs {@code hookSpecificOutput.updatedInput} given with {@code permissionDecision: "allow"}. */
    public static final Set<String> CLAUDE_REWRITE = Set.of("PreToolUse");

    private final String id;
    private final Dialect dialect;
    private final ToolNames tools;
    /** Native events whose {@code updatedInput} (with {@code permissionDecision: "allow"}) the host runs. */
    private final Set<String> rewrite;

    public ClaudeAdapter(String id) {
        this(id, CLAUDE, TOOLS, CLAUDE_REWRITE);
    }

    /** A dialect with no rewrite. */
    public ClaudeAdapter(String id, Dialect dialect, ToolNames tools) {
        this(id, dialect, tools, Set.of());
    }

    /** @param rewrite native events where the host runs a rewritten tool input ({@code updatedInput}) */
    public ClaudeAdapter(String id, Dialect dialect, ToolNames tools, Set<String> rewrite) {
        this.id = id;
        this.dialect = dialect;
        this.tools = tools;
        this.rewrite = rewrite;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String nativeEventOf(Map<String, Object> payload) {
        return payload.get("hook_event_name") instanceof String s ? s : null;
    }

    @Override
    public HookEvent normalize(String nativeEvent, EventName event, Map<String, Object> payload, byte[] raw,
                               String workspaceRoot) {
        String toolName = str(payload, "tool_name", null);
        ToolKind kind = tools.kindOf(toolName);
        Object toolInput = payload.get("tool_input");
        Object agent = first(payload, "agent_id", "agentId");
        String agentId = agent instanceof String s && !s.isEmpty() ? s : null;
        String session = str(payload, "session_id", "");
        if (session.isEmpty()) {
            session = str(payload, "sessionId", "");
        }
        return new HookEvent(id, event, nativeEvent, session,
                event == EventName.SESSION_START ? str(payload, "source", null) : null,
                agentId, agent != null && !(agent instanceof String),
                firstString(payload, "agent_type", "agentType", "subagent_type", "subagentType"),
                firstString(payload, "parent_agent_id", "parentAgentId"),
                toolName, kind, toolInput, ToolInputs.command(toolInput), filePathsOf(toolInput),
                str(payload, "prompt", null), str(payload, "last_assistant_message", null),
                Boolean.TRUE.equals(payload.get("stop_hook_active")),
                str(payload, "cwd", null), str(payload, "transcript_path", null), workspaceRoot, payload, raw);
    }

    /**
     * The files a tool input names: its {@code file_path} and {@code notebook_path} strings, and
     * those of a patch envelope (Codex's {@code apply_patch} sends its patch as {@code command}).
     */
    private static List<String> filePathsOf(Object toolInput) {
        return ToolInputs.filePaths(toolInput, "file_path", "notebook_path");
    }

    @Override
    public Capability capability(String nativeEvent) {
        return new Capability(dialect.block().containsKey(nativeEvent), dialect.context().contains(nativeEvent),
                dialect.ask().contains(nativeEvent), rewrite.contains(nativeEvent));
    }

    @Override
    public HostResponse render(String nativeEvent, Verdict verdict) {
        if (dialect.noOutput().contains(nativeEvent)) {
            return verdict.kind() == Verdict.Kind.ALLOW && verdict.context() == null ? HostResponse.SILENT
                    : HostResponse.SILENT.withStderr("warden: " + verdict.kind().name().toLowerCase(java.util.Locale.ROOT)
                    + " not delivered on " + nativeEvent + " (the host reads no output): " + verdict.reason());
        }
        if (verdict.kind() == Verdict.Kind.HALT && dialect.haltAsDeny().contains(nativeEvent)) {
            return renderBlock(nativeEvent, verdict)
                    .withStderr("warden: halt rendered as a deny on " + nativeEvent + " (continue:false unsupported)");
        }
        switch (verdict.kind()) {
            case HALT: {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("continue", Boolean.FALSE);
                out.put("stopReason", cap(PREFIX + verdict.reason()));
                if (dialect.haltDenies().contains(nativeEvent)) {
                    putBlock(out, dialect.block().get(nativeEvent), nativeEvent, verdict.reason(), null, true);
                }
                return json(out);
            }
            case BLOCK:
                return renderBlock(nativeEvent, verdict);
            case ASK:
                return renderAsk(nativeEvent, verdict);
            case WARN:
            case ALLOW:
            default:
                if (verdict.rewrites() && rewrite.contains(nativeEvent)) {
                    return renderRewrite(nativeEvent, verdict);
                }
                if (verdict.context() != null) {
                    return renderContext(nativeEvent, verdict.context());
                }
                return dialect.jsonRequired().contains(nativeEvent) ? new HostResponse(0, "{}", "") : HostResponse.SILENT;
        }
    }

    /**
     * The rewritten tool input as {@code updatedInput}, which the host runs only beside an explicit
     * {@code permissionDecision: "allow"} (Codex ignores it otherwise).
     */
    private HostResponse renderRewrite(String nativeEvent, Verdict verdict) {
        Map<String, Object> specific = new LinkedHashMap<>();
        specific.put("hookEventName", nativeEvent);
        specific.put("permissionDecision", "allow");
        specific.put("permissionDecisionReason", cap(PREFIX + "tool input rewritten by " + verdict.rewrittenBy()));
        specific.put("updatedInput", verdict.updatedInput());
        if (verdict.context() != null) {
            specific.put("additionalContext", cap(verdict.context()));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("hookSpecificOutput", specific);
        return json(out);
    }

    private HostResponse renderAsk(String nativeEvent, Verdict verdict) {
        if (dialect.ask().contains(nativeEvent)) {
            Map<String, Object> specific = new LinkedHashMap<>();
            specific.put("hookEventName", nativeEvent);
            specific.put("permissionDecision", "ask");
            specific.put("permissionDecisionReason", cap(PREFIX + verdict.reason()));
            if (verdict.context() != null) {
                specific.put("additionalContext", cap(verdict.context()));
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("hookSpecificOutput", specific);
            return json(out);
        }
        if (dialect.askDefers().contains(nativeEvent)) {
            return render(nativeEvent, Verdict.NO_OPINION)
                    .withStderr("warden: ask left to the host's own prompt on " + nativeEvent + ": " + verdict.reason());
        }
        return renderBlock(nativeEvent, new Verdict(Verdict.Kind.BLOCK, verdict.reason(), verdict.context()))
                .withStderr("warden: ask rendered as a block on " + nativeEvent + " (the host cannot ask there)");
    }

    private HostResponse renderBlock(String nativeEvent, Verdict verdict) {
        BlockChannel channel = dialect.block().get(nativeEvent);
        if (channel == null) {
            String text = "policy would block this " + nativeEvent + ", which the host cannot refuse: " + verdict.reason();
            HostResponse downgraded = renderContext(nativeEvent, verdict.context() == null ? text : text + "\n" + verdict.context());
            return downgraded.withStderr("warden: block downgraded to context on " + nativeEvent + " (not blockable)");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        putBlock(out, channel, nativeEvent, verdict.reason(), verdict.context(), false);
        return json(out);
    }

    /**
     * Adds a refusal of this event's action, in its channel, to {@code out}; {@code context} may be
     * null. A halting refusal of a permission request also interrupts the agent's turn.
     */
    private static void putBlock(Map<String, Object> out, BlockChannel channel, String nativeEvent, String why,
                                 String context, boolean halt) {
        String reason = cap(PREFIX + why);
        switch (channel) {
            case PERMISSION_DENY: {
                Map<String, Object> specific = new LinkedHashMap<>();
                specific.put("hookEventName", nativeEvent);
                specific.put("permissionDecision", "deny");
                specific.put("permissionDecisionReason", reason);
                if (context != null && !DENY_WITHOUT_CONTEXT.contains(nativeEvent)) {
                    specific.put("additionalContext", cap(context));
                }
                out.put("hookSpecificOutput", specific);
                break;
            }
            case PERMISSION_REQUEST_DENY: {
                Map<String, Object> decision = new LinkedHashMap<>();
                decision.put("behavior", "deny");
                decision.put("message", reason);
                if (halt) {
                    decision.put("interrupt", Boolean.TRUE);
                }
                Map<String, Object> specific = new LinkedHashMap<>();
                specific.put("hookEventName", nativeEvent);
                specific.put("decision", decision);
                out.put("hookSpecificOutput", specific);
                break;
            }
            case DECISION_BLOCK:
            default:
                out.put("decision", "block");
                out.put("reason", reason);
                break;
        }
    }

    private HostResponse renderContext(String nativeEvent, String context) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (dialect.context().contains(nativeEvent)) {
            Map<String, Object> specific = new LinkedHashMap<>();
            specific.put("hookEventName", nativeEvent);
            specific.put("additionalContext", cap(context));
            out.put("hookSpecificOutput", specific);
        } else {
            out.put("systemMessage", cap(PREFIX + context));
        }
        return json(out);
    }

    private static HostResponse json(Map<String, Object> out) {
        return new HostResponse(0, Json.write(out), "");
    }

    private static String cap(String s) {
        return HostResponse.capped(s, OUTPUT_CAP_CHARS);
    }

    private static String str(Map<String, Object> payload, String key, String fallback) {
        return payload.get(key) instanceof String s ? s : fallback;
    }

    private static Object first(Map<String, Object> payload, String key, String alternative) {
        Object v = payload.get(key);
        return v != null ? v : payload.get(alternative);
    }

    /** The first of {@code keys} present in the payload, if it is a string; else {@code null}. */
    private static String firstString(Map<String, Object> payload, String... keys) {
        for (String k : keys) {
            Object v = payload.get(k);
            if (v != null) {
                return v instanceof String s ? s : null;
            }
        }
        return null;
    }
}
