package dev.agentwarden.inventory;

import java.util.List;
import java.util.Map;

/**
 * One MCP server as a host's configuration declares it. {@code env} and {@code headers} are handed
 * to the server and never recorded in a snapshot.
 *
 * @param host          the host whose configuration declared it ({@code claude}, {@code codex}, ...)
 * @param name          the server's name in that configuration
 * @param source        the configuration file it came from
 * @param projectScoped declared by a file inside the project (a cloned repository controls it)
 * @param transport     {@code stdio}, {@code http} (streamable HTTP) or an unsupported kind such as {@code sse}
 */
record McpServerConfig(String host, String name, String source, boolean projectScoped, String transport,
                              String command, List<String> args, Map<String, String> env, String cwd,
                              String url, Map<String, String> headers) {

    public static final String STDIO = "stdio";
    public static final String HTTP = "http";

    /** The key a snapshot files this server under: host and name. */
    public String key() {
        return host + "/" + name;
    }
}
