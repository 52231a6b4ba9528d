package dev.agentwarden.concern;

import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.McpToolName;
import dev.agentwarden.event.ToolKind;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One concern as declared in the manifest, after validation.
 *
 * @param name               the concern's key under {@code concerns:}
 * @param script             {@code builtin:<name>} or a command path
 * @param args               extra arguments for a command concern
 * @param failClosed         a crash, timeout or rc ≥ 3 blocks instead of allowing
 * @param posture            effective posture ({@code posture:} key, else derived from {@code severity:})
 * @param tools              tool names this concern applies to; empty means all
 * @param timeoutMs          wall-clock budget of one run
 * @param skipOnRefusalRetry skip on a stop that is itself a retry after a refusal
 * @param nudgeRank          rank among nudging concerns (lowest wins), or 0 when unranked
 * @param settings           a built-in's declared settings (every other key of its entry, checked by its
 *                           descriptor), or a process concern's {@code settings:} mapping
 * @param payloadBodies      {@code needs_payload_bodies}: which of {@code input} and {@code result} a
 *                           process concern that is not blocking receives whole (others get a stub)
 * @param escalate           {@code escalate}: the step its refusal becomes after repeated strikes in a
 *                           session, or {@code null}
 */
public record ConcernSpec(String name, String script, List<String> args, boolean failClosed,
                          Posture posture, Set<String> tools, int timeoutMs,
                          boolean skipOnRefusalRetry, int nudgeRank, Map<String, Object> settings,
                          Set<String> payloadBodies, Escalation escalate) {

    /** A concern that does not escalate ({@code escalate} absent). */
    public ConcernSpec(String name, String script, List<String> args, boolean failClosed, Posture posture,
                       Set<String> tools, int timeoutMs, boolean skipOnRefusalRetry, int nudgeRank,
                       Map<String, Object> settings, Set<String> payloadBodies) {
        this(name, script, args, failClosed, posture, tools, timeoutMs, skipOnRefusalRetry, nudgeRank, settings,
                payloadBodies, null);
    }

    /** A concern that declares no payload bodies ({@code needs_payload_bodies} absent). */
    public ConcernSpec(String name, String script, List<String> args, boolean failClosed, Posture posture,
                       Set<String> tools, int timeoutMs, boolean skipOnRefusalRetry, int nudgeRank,
                       Map<String, Object> settings) {
        this(name, script, args, failClosed, posture, tools, timeoutMs, skipOnRefusalRetry, nudgeRank, settings, Set.of());
    }

    public static final String BUILTIN_PREFIX = "builtin:";
    public static final int DEFAULT_TIMEOUT_MS = 10_000;

    public boolean isBuiltin() {
        return script.startsWith(BUILTIN_PREFIX);
    }

    public String builtinName() {
        return script.substring(BUILTIN_PREFIX.length());
    }

    /** Whether this concern runs for a tool name; events without a tool name are never filtered. */
    public boolean appliesToTool(String toolName) {
        return appliesToTool(toolName, null);
    }

    /**
     * Whether this concern runs for a tool: its host name listed, or matched by a {@code *} glob; an
     * MCP tool ({@code kind} {@link ToolKind#MCP}) also by its canonical {@code mcp__<server>__<tool>}
     * name, so one filter matches every host's spelling. Events without a tool name are never filtered.
     */
    public boolean appliesToTool(String toolName, ToolKind kind) {
        McpToolName mcp = kind == ToolKind.MCP ? McpToolName.of(toolName, kind) : null;
        return appliesToName(toolName, mcp == null ? List.of() : List.of(mcp));
    }

    /**
     * Whether this concern runs for a tool event: as {@link #appliesToTool(String, ToolKind)}, with
     * the event's every MCP reading ({@link HookEvent#mcpNames}) matched by its canonical name; one
     * matching reading is enough, so a host whose readings disagree never skips a concern either names.
     */
    public boolean appliesTo(HookEvent event) {
        if (event.toolName() == null || tools.isEmpty()) {
            return true;
        }
        return appliesToName(event.toolName(), event.mcpNames());
    }

    /** Whether this concern runs for a tool named {@code toolName} read as the MCP tool {@code mcp}. */
    public boolean appliesToMcp(String toolName, McpToolName mcp) {
        return appliesToName(toolName, List.of(mcp));
    }

    private boolean appliesToName(String toolName, List<McpToolName> mcp) {
        if (toolName == null || tools.isEmpty() || tools.contains("*") || tools.contains(toolName)) {
            return true;
        }
        for (int i = 0; i < mcp.size(); i++) {
            if (tools.contains(mcp.get(i).canonical())) {
                return true;
            }
        }
        for (String pattern : tools) {
            if (pattern.indexOf('*') < 0) {
                continue;
            }
            if (ToolGlob.matches(pattern, toolName)) {
                return true;
            }
            for (int i = 0; i < mcp.size(); i++) {
                if (ToolGlob.matches(pattern, mcp.get(i).canonical())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A setting as a string, or the fallback. */
    public String setting(String key, String fallback) {
        return settings.get(key) instanceof String s ? s : fallback;
    }

    /** A setting as a long, or the fallback. */
    public long setting(String key, long fallback) {
        return settings.get(key) instanceof Number n ? n.longValue() : fallback;
    }
}
