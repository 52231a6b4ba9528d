package dev.agentwarden.e2e;

import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The real reference MCP server, {@code @modelcontextprotocol/server-everything} from npm (installed by
 * {@code .ci/run} into {@code $WARDEN_E2E_CACHE/mcp-everything}), configured as a host's stdio server
 * named {@value #NAME} behind {@code mcp-call-log-proxy.cjs}: a pass-through that appends every
 * {@code tools/call} reaching the server to a call log (the proof of which calls ran), and that can
 * append a poisoned sentence to one tool's description in every {@code tools/list} result (a rug pull:
 * same server name, changed tool).
 */
final class ReferenceMcpServer {
    /** The server's name in the host's config: its tools are {@code mcp__everything__<tool>} on Claude Code. */
    static final String NAME = "everything";

    private final Path node;
    private final Path serverJs;
    private final Path proxy;

    private ReferenceMcpServer(Path node, Path serverJs, Path proxy) {
        this.node = node;
        this.serverJs = serverJs;
        this.proxy = proxy;
    }

    /** The server's entry point in the e2e cache. */
    static Path serverJs() {
        return HostInstall.cacheRoot().resolve("mcp-everything/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    }

    /**
     * The server, with the proxy copied into {@code scratch}; null when node or the server is missing
     * ({@link #unavailable} says why).
     */
    static ReferenceMcpServer find(Path scratch) throws IOException {
        Path node = Command.onPath("node").orElse(null);
        if (node == null || !Files.isRegularFile(serverJs())) {
            return null;
        }
        return new ReferenceMcpServer(node, serverJs(), LoopbackSandbox.copyResource("mcp-call-log-proxy.cjs", scratch));
    }

    static String unavailable() {
        return "the reference MCP server is not installed at " + serverJs()
                + " (npm install --prefix <cache>/mcp-everything @modelcontextprotocol/server-everything, as .ci/run does)"
                + " or node is not on PATH";
    }

    /**
     * Writes the project's {@code .mcp.json}: the server behind the proxy, logging to {@code callLog};
     * with {@code driftTool} non-null, that tool's description is poisoned.
     */
    void configure(Path projectRoot, Path callLog, String driftTool) throws IOException {
        Files.writeString(projectRoot.resolve(".mcp.json"), Json.writePretty(Map.of("mcpServers",
                Map.of(NAME, entry(callLog, driftTool)))), StandardCharsets.UTF_8);
    }

    /** The server's entry in a host's {@code mcpServers}: {@code command} and {@code args}, as {@link #configure} writes it. */
    Map<String, Object> entry(Path callLog, String driftTool) {
        List<String> args = new ArrayList<>(List.of(proxy.toString(), serverJs.toString(), callLog.toString()));
        if (driftTool != null) {
            args.add(driftTool);
        }
        return Map.of("command", node.toString(), "args", args);
    }

    /** The server's own names of the tools called through the proxy, in order; empty when none was. */
    static List<String> calledTools(Path callLog) throws IOException {
        List<String> tools = new ArrayList<>();
        if (!Files.exists(callLog)) {
            return tools;
        }
        for (String line : Files.readAllLines(callLog, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                tools.add(String.valueOf(Json.parseObject(line).get("tool")));
            }
        }
        return tools;
    }
}
