package dev.agentwarden.rule;

import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.McpToolName;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.shell.ShellScript;
import dev.agentwarden.shell.ShellWord;
import dev.agentwarden.shell.SimpleCommand;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The typed view of one normalized event that rules read: every {@link RuleField} by its name, with
 * a value of its type on every event ({@code ""}, {@code 0}, an empty list or map where the event
 * carries none). Tool input values are JSON values: strings, numbers (int or double), booleans,
 * lists, maps and null.
 */
public final class RuleView {
    private RuleView() {
    }

    /** The view of {@code event}, keyed by {@link RuleField#wire()}, with its first MCP reading. */
    public static Map<String, Object> values(HookEvent event) {
        List<McpToolName> mcp = event.mcpNames();
        return values(event, mcp.isEmpty() ? null : mcp.get(0));
    }

    /** The view of {@code event} with {@code mcp} as its MCP server and tool ({@code null}: none). */
    static Map<String, Object> values(HookEvent event, McpToolName mcp) {
        Map<String, Object> v = new HashMap<>(32);
        v.put(RuleField.HOST.wire(), nonNull(event.host()));
        v.put(RuleField.EVENT.wire(), event.event().wire());
        v.put(RuleField.TOOL_NAME.wire(), nonNull(event.toolName()));
        v.put(RuleField.TOOL_KIND.wire(), kind(event.toolKind()));
        v.put(RuleField.TOOL_INPUT.wire(), input(event.toolInput()));
        boolean shell = event.toolKind() == ToolKind.SHELL && event.shellCommand() != null;
        String command = shell ? event.shellCommand() : "";
        v.put(RuleField.COMMAND.wire(), command);
        List<String> words = new ArrayList<>();
        List<String> commands = new ArrayList<>();
        if (shell) {
            for (SimpleCommand c : ShellScript.parse(command).commands()) {
                List<ShellWord> ws = c.words();
                for (int i = 0; i < ws.size(); i++) {
                    words.add(ws.get(i).text());
                }
                if (!ws.isEmpty()) {
                    commands.add(ws.get(0).text());
                }
            }
        }
        v.put(RuleField.WORDS.wire(), words);
        v.put(RuleField.COMMANDS.wire(), commands);
        v.put(RuleField.PATHS.wire(), paths(event));
        v.put(RuleField.PROMPT.wire(), nonNull(event.prompt()));
        v.put(RuleField.SESSION_ID.wire(), nonNull(event.sessionId()));
        v.put(RuleField.SESSION_STRIKES.wire(), 0L);
        v.put(RuleField.SUBAGENT_DEPTH.wire(), event.agentId() == null ? 0L : 1L);
        putMcp(v, mcp);
        return v;
    }

    /** A copy of {@code view} with {@code mcp} as its MCP server and tool, drift facts reset. */
    static Map<String, Object> withMcp(Map<String, Object> view, McpToolName mcp) {
        Map<String, Object> v = new HashMap<>(view);
        putMcp(v, mcp);
        return v;
    }

    private static void putMcp(Map<String, Object> v, McpToolName mcp) {
        v.put(RuleField.MCP_SERVER.wire(), mcp == null ? "" : mcp.server());
        v.put(RuleField.MCP_TOOL.wire(), mcp == null ? "" : mcp.tool());
        v.put(RuleField.MCP_NAME.wire(), mcp == null ? "" : mcp.canonical());
        v.put(RuleField.MCP_DRIFT_KNOWN_SERVER.wire(), false);
        v.put(RuleField.MCP_DRIFT_CHANGED.wire(), false);
    }

    /** The kind a rule reads: shell, edit, read, subagent, mcp or other; "" off tool events. */
    static String kind(ToolKind kind) {
        if (kind == null) {
            return "";
        }
        switch (kind) {
            case SHELL:
                return "shell";
            case FILE_EDIT:
                return "edit";
            case FILE_READ:
                return "read";
            case SUBAGENT_DISPATCH:
                return "subagent";
            case MCP:
                return "mcp";
            default:
                return "other";
        }
    }

    /** A tool input object with string keys; anything else is an empty map. */
    private static Map<String, Object> input(Object toolInput) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (toolInput instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                out.put(String.valueOf(e.getKey()), e.getValue());
            }
        }
        return out;
    }

    /**
     * The files named, each resolved lexically (no link followed) against the host's working
     * directory, else the project root: relative to the project root when inside it, else absolute.
     */
    static List<String> paths(HookEvent event) {
        List<String> out = new ArrayList<>(event.filePaths().size());
        Path root;
        try {
            root = Path.of(event.workspaceRoot()).toAbsolutePath().normalize();
        } catch (InvalidPathException | NullPointerException e) {
            out.addAll(event.filePaths());
            return out;
        }
        Path base = root;
        if (event.cwd() != null) {
            try {
                base = root.resolve(event.cwd()).normalize();
            } catch (InvalidPathException e) {
                base = root;
            }
        }
        for (String p : event.filePaths()) {
            try {
                Path abs = base.resolve(p).normalize();
                out.add(abs.startsWith(root) ? (abs.equals(root) ? "." : root.relativize(abs).toString()) : abs.toString());
            } catch (InvalidPathException e) {
                out.add(p);
            }
        }
        return out;
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }
}
