package dev.agentwarden.host.opencode;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.host.HostAdapter;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.host.ToolNames;
import dev.agentwarden.host.ToolInputs;
import dev.agentwarden.json.Json;
import dev.agentwarden.verdict.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * OpenCode's plugin callbacks as Warden's bridge plugin ({@code warden-bridge.js}) hands them over:
 * an envelope {@code {hook, cwd, input, output, parentID?, rootID?}} per callback, where
 * {@code hook} is the callback's name ({@code tool.execute.before}, {@code chat.message}) or
 * {@code event.<bus event type>} for the {@code event} callback, with a child session's
 * {@code session.created} and {@code session.idle} named {@code event.subagent.created} and
 * {@code event.subagent.idle}. {@code parentID} and {@code rootID} name the parent and the top
 * session when the callback's session is a subagent's child session.
 *
 * <p>The answer is exit 0 and at most one JSON object: {@code {"decision":"deny","reason"}} (with
 * {@code "halt":true} for a halt, on which the bridge also aborts the session), which the bridge
 * throws, or {@code {"context"}}, which it appends to the tool's output ({@code tool.execute.after})
 * or adds to the prompt as a synthetic text part ({@code chat.message}). No opinion is no output.
 * A refused prompt ends OpenCode's run with "Unexpected server error" and no reason, so the bridge
 * also writes the reason of every refusal to stderr.
 * What a plugin cannot do is downgraded visibly: an ask is a deny (a plugin cannot put a question),
 * a block where the action already happened is context for the model, and anything on bus events
 * (which a plugin only observes) is a stderr note.
 *
 * <p>Subagents are child sessions: their events carry the top session as the session (as Claude's
 * subagent events carry the parent's {@code session_id}) and the child session id as the agent id.
 */
public final class OpenCodeAdapter implements HostAdapter {

    /** OpenCode's built-in tool names by kind ({@code task} starts a subagent in a child session). */
    public static final ToolNames TOOLS = new ToolNames(Set.of("bash"), Set.of("task"),
            Set.of("edit", "write", "patch", "multiedit", "apply_patch"), Set.of("read"), null);

    /** Refused by throwing: the tool does not run, the prompt is not sent. */
    static final Set<String> BLOCKABLE = Set.of("tool.execute.before", "chat.message");

    /** Where text reaches the model: appended to the tool's output, or a text part of the prompt. */
    static final Set<String> CONTEXT = Set.of("tool.execute.after", "chat.message");

    /** Longest string put in an answer; the bridge sends it on as an error message or a text part. */
    static final int OUTPUT_CAP_CHARS = 10_000;

    private static final String PREFIX = "[warden] ";

    private final String id;
    private final ToolNames tools;

    /**
     * @param id    the host id events are recorded under ({@code opencode}, or a fork's)
     * @param tools the host's built-in tool names by kind ({@link #TOOLS} for OpenCode)
     */
    OpenCodeAdapter(String id, ToolNames tools) {
        this.id = id;
        this.tools = tools;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String nativeEventOf(Map<String, Object> payload) {
        return payload.get("hook") instanceof String s ? s : null;
    }

    @Override
    public HookEvent normalize(String nativeEvent, EventName event, Map<String, Object> payload, byte[] raw,
                               String workspaceRoot) {
        Map<String, Object> input = map(payload.get("input"));
        Map<String, Object> output = map(payload.get("output"));
        Map<String, Object> properties = map(input.get("properties"));
        Map<String, Object> info = map(properties.get("info"));
        String own = str(input.get("sessionID"));
        if (own == null) {
            own = str(properties.get("sessionID"));
        }
        if (own == null) {
            own = str(info.get("id"));
        }
        String parent = str(payload.get("parentID"));
        if (parent == null && nativeEvent.startsWith("event.") && str(info.get("parentID")) != null) {
            parent = str(info.get("parentID"));
        }
        String top = str(payload.get("rootID"));
        if (top == null) {
            top = parent;
        }
        boolean child = parent != null && own != null;
        String session = child ? top : own == null ? "" : own;
        String agentId = child ? own : null;
        String parentAgent = child && !parent.equals(top) ? parent : null;

        String toolName = nativeEvent.startsWith("tool.") ? str(input.get("tool")) : null;
        ToolKind kind = tools.kindOf(toolName);
        Object toolInput = null;
        if ("tool.execute.before".equals(nativeEvent)) {
            toolInput = output.get("args");
        } else if ("tool.execute.after".equals(nativeEvent)) {
            toolInput = input.get("args");
        }
        String agentType = str(info.get("agent"));
        if (agentType == null && kind == ToolKind.SUBAGENT_DISPATCH) {
            agentType = str(map(toolInput).get("subagent_type"));
        }
        return new HookEvent(id, event, nativeEvent, session,
                event == EventName.SESSION_START ? "startup" : null,
                agentId, false, child || kind == ToolKind.SUBAGENT_DISPATCH ? agentType : null, parentAgent,
                toolName, kind, toolInput, commandOf(toolInput), filePathsOf(toolInput),
                "chat.message".equals(nativeEvent) ? promptOf(output) : null, null, false,
                str(payload.get("cwd")), null, workspaceRoot, payload, raw);
    }

    /** The text parts of the user's message, joined by newlines, or {@code null} when it has none. */
    private static String promptOf(Map<String, Object> output) {
        StringBuilder text = new StringBuilder();
        if (output.get("parts") instanceof List<?> parts) {
            for (Object p : parts) {
                Map<String, Object> part = map(p);
                if ("text".equals(part.get("type")) && part.get("text") instanceof String s) {
                    text.append(text.length() == 0 ? "" : "\n").append(s);
                }
            }
        }
        return text.length() == 0 ? null : text.toString();
    }

    private static String commandOf(Object toolInput) {
        return str(map(toolInput).get("command"));
    }

    /**
     * The files a tool input names: OpenCode's {@code filePath} (and {@code file_path}, {@code path}),
     * and those of the patch envelope its {@code apply_patch} takes as {@code patchText}.
     */
    private static List<String> filePathsOf(Object toolInput) {
        Map<String, Object> args = map(toolInput);
        List<String> out = new ArrayList<>(1);
        String[] keys = {"filePath", "file_path", "path"};
        for (int i = 0; i < keys.length; i++) {
            String p = str(args.get(keys[i]));
            if (p != null) {
                out.add(p);
            }
        }
        ToolInputs.addPatchPaths(toolInput, out);
        return out;
    }

    @Override
    public Capability capability(String nativeEvent) {
        return new Capability(BLOCKABLE.contains(nativeEvent), CONTEXT.contains(nativeEvent), false);
    }

    @Override
    public HostResponse render(String nativeEvent, Verdict verdict) {
        Verdict.Kind kind = verdict.kind();
        if (kind == Verdict.Kind.ALLOW || kind == Verdict.Kind.WARN) {
            return verdict.context() == null ? HostResponse.SILENT : context(nativeEvent, verdict.context());
        }
        String reason = verdict.reason() == null ? Verdict.DEFAULT_BLOCK_REASON : verdict.reason();
        if (!BLOCKABLE.contains(nativeEvent)) {
            String text = "policy would " + (kind == Verdict.Kind.ASK ? "ask about" : "block") + " this " + nativeEvent
                    + ", which a plugin cannot refuse: " + reason;
            return context(nativeEvent, verdict.context() == null ? text : text + "\n" + verdict.context())
                    .withStderr("warden: " + word(kind) + " downgraded on " + nativeEvent + " (not refusable by a plugin)");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("decision", "deny");
        out.put("reason", cap(PREFIX + reason));
        if (kind == Verdict.Kind.HALT) {
            out.put("halt", Boolean.TRUE);
        }
        HostResponse deny = new HostResponse(0, Json.write(out), "");
        return kind == Verdict.Kind.ASK
                ? deny.withStderr("warden: ask rendered as a deny on " + nativeEvent + " (a plugin cannot ask the user)")
                : deny;
    }

    /** Context where the event has a channel to the model; elsewhere a stderr note saying it was not delivered. */
    private static HostResponse context(String nativeEvent, String text) {
        if (!CONTEXT.contains(nativeEvent)) {
            return HostResponse.SILENT.withStderr("warden: context not delivered on " + nativeEvent
                    + " (a plugin has no channel to the model there): " + text);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("context", cap(PREFIX + text));
        return new HostResponse(0, Json.write(out), "");
    }

    private static String word(Verdict.Kind kind) {
        return kind.name().toLowerCase(Locale.ROOT);
    }

    private static String cap(String s) {
        return HostResponse.capped(s, OUTPUT_CAP_CHARS);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    private static String str(Object value) {
        return value instanceof String s && !s.isEmpty() ? s : null;
    }
}
