package dev.agentwarden.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentwarden.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code @modelcontextprotocol/server-everything} from npm (installed by {@code .ci/run} into
 * {@code $WARDEN_E2E_CACHE/mcp-everything}), over stdio in process and over streamable HTTP through the
 * jar inside a loopback-only network namespace (the server binds every interface).
 */
class McpEverythingIT {
    private static Path server;
    private static Path node;

    @TempDir
    Path dir;

    @BeforeAll
    static void locate() {
        String cache = System.getenv().getOrDefault("WARDEN_E2E_CACHE",
                System.getProperty("user.home") + "/.cache/agent-warden-e2e");
        server = Path.of(cache, "mcp-everything", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
        node = onPath("node");
        assumeTrue(node != null, "node is not on PATH; McpEverythingIT skipped");
        assumeTrue(Files.isRegularFile(server), "server-everything is not installed at " + server
                + " (npm install --prefix <cache>/mcp-everything @modelcontextprotocol/server-everything, as .ci/run does);"
                + " McpEverythingIT skipped");
    }

    private static Path onPath(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path p = Path.of(d, name);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    private ServerSnapshot stdio(ClientProfile profile) {
        McpServerConfig config = new McpServerConfig("claude", "everything", "it", false, McpServerConfig.STDIO,
                node.toString(), List.of(server.toString(), "stdio"), Map.of(), null, null, Map.of());
        return new McpSnapshotter(McpSnapshotter.Limits.defaults(), dir).snapshot(config, profile, false);
    }

    @Test
    void stdio_clientWithoutCapabilities_gets13Tools() {
        ServerSnapshot s = stdio(ClientProfile.none());
        assertThat(s.status()).as(s.reason()).isEqualTo(ServerStatus.OK);
        assertThat(s.tools()).hasSize(13);
        assertThat(names(s)).doesNotContain("get-roots-list", "trigger-sampling-request", "trigger-elicitation-request");
        assertThat(s.declared()).isEmpty();
    }

    @Test
    void stdio_clientWithRootsSamplingElicitation_getsTheCapabilityTools() {
        ServerSnapshot s = stdio(ClientProfile.full());
        assertThat(s.status()).as(s.reason()).isEqualTo(ServerStatus.OK);
        assertThat(names(s)).contains("get-roots-list", "trigger-sampling-request", "trigger-elicitation-request")
                .doesNotContain("trigger-url-elicitation").hasSize(16);
        assertThat(s.declared()).containsOnlyKeys("roots", "sampling", "elicitation");
        ServerSnapshot url = stdio(ClientProfile.parse("roots,sampling,elicitation-url"));
        assertThat(names(url)).contains("trigger-url-elicitation").hasSize(17);
    }

    @Test
    void stdio_listChangedAfterInitialized_isCountedAndSettled() {
        ServerSnapshot s = stdio(ClientProfile.full());
        // The server registers its capability-dependent tools on initialized and announces each.
        assertThat(s.listChanged()).isGreaterThanOrEqualTo(1);
        assertThat(s.settled()).isTrue();
        assertThat(names(s)).contains("simulate-research-query");
    }

    @Test
    void hashes_matchAnIndependentNodeComputation() throws Exception {
        ServerSnapshot s = stdio(ClientProfile.full());
        Path input = dir.resolve("snapshot.json");
        Files.writeString(input, Json.write(s.toJson()));
        Path script = dir.resolve("hash.cjs");
        Files.writeString(script, String.join("\n",
                "const fs = require('fs'), crypto = require('crypto');",
                "const canon = v => Array.isArray(v) ? '[' + v.map(canon).join(',') + ']'",
                "  : (v !== null && typeof v === 'object') ? '{' + Object.keys(v).sort().map(k => JSON.stringify(k) + ':' + canon(v[k])).join(',') + '}'",
                "  : JSON.stringify(v);",
                "const sha = s => crypto.createHash('sha256').update(Buffer.from(s, 'utf8')).digest('hex');",
                "const strip = t => { const c = Object.assign({}, t); delete c._meta; return c; };",
                "const snap = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));",
                "const tools = snap.tools.map(e => strip(e.tool));",
                "const out = {tools: {}, server: sha(canon(tools.slice().sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0)))};",
                "for (const t of tools) out.tools[t.name] = sha(canon(t));",
                "process.stdout.write(JSON.stringify(out));"));
        Process p = new ProcessBuilder(node.toString(), script.toString(), input.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        Map<String, Object> independent = Json.parseObject(out);
        assertThat(independent.get("server")).isEqualTo(s.sha256());
        assertThat(independent.get("tools")).isEqualTo(s.toolHashes());
    }

    @Test
    void streamableHttp_insideLoopbackNamespace_givesTheSameManifestAsStdio() throws Exception {
        String jar = System.getProperty("warden.jar");
        assumeTrue(jar != null && Files.isRegularFile(Path.of(jar)), "target/warden.jar missing (mvn package first)");
        Path project = Files.createDirectories(dir.resolve("project"));
        int port = 38000 + (int) (ProcessHandle.current().pid() % 1000);
        Files.createDirectories(project.resolve(".cursor"));
        Files.writeString(project.resolve(".cursor/mcp.json"),
                "{\"mcpServers\":{\"everything\":{\"url\":\"http://127.0.0.1:" + port + "/mcp\"}}}");
        Path script = dir.resolve("run.sh");
        Files.writeString(script, String.join("\n",
                "ip link set lo up || exit 90",
                "PORT=" + port + " \"$NODE\" \"$SERVER\" streamableHttp > \"$LOG\" 2>&1 &",
                "for i in $(seq 300); do (exec 3<>/dev/tcp/127.0.0.1/" + port + ") 2>/dev/null && break; sleep 0.1; done",
                "\"$JAVA\" -jar \"$JAR\" inventory snapshot --project-dir \"$PROJECT\" --host cursor --json",
                "rc=$?; kill %1; exit $rc"));
        String body = null;
        String failures = "";
        for (List<String> flags : List.of(List.of("-n"), List.of("-r", "-n"))) {
            List<String> cmd = new ArrayList<>(List.of("unshare"));
            cmd.addAll(flags);
            cmd.addAll(List.of("bash", script.toString()));
            ProcessBuilder pb = new ProcessBuilder(cmd);
            pb.environment().put("NODE", node.toString());
            pb.environment().put("SERVER", server.toString());
            pb.environment().put("LOG", dir.resolve("server.log").toString());
            pb.environment().put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
            pb.environment().put("JAR", jar);
            pb.environment().put("PROJECT", project.toString());
            pb.redirectError(dir.resolve("stderr.txt").toFile());
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            if (p.exitValue() == 0) {
                body = out;
                break;
            }
            failures += " unshare " + flags + " exit " + p.exitValue() + ": " + Files.readString(dir.resolve("stderr.txt"));
        }
        assumeTrue(body != null, "no loopback-only network namespace here; HTTP not tested:" + failures);
        Map<String, Object> snapshot = Json.parseObject(body.strip());
        @SuppressWarnings("unchecked")
        Map<String, Object> http = ((List<Map<String, Object>>) snapshot.get("servers")).get(0);
        assertThat(http.get("status")).as(String.valueOf(http.get("reason"))).isEqualTo("OK");
        assertThat(http.get("transport")).isEqualTo("http");
        assertThat((List<?>) http.get("tools")).hasSize(16);
        assertThat(http.get("sha256")).isEqualTo(stdio(ClientProfile.full()).sha256());
        assertThat(Files.readString(dir.resolve("server.log"))).contains("session termination");
        assertThat(snapshot.get("stored")).asString().contains(".warden/state/inventory/");
    }

    private static List<Object> names(ServerSnapshot s) {
        List<Object> out = new ArrayList<>();
        for (Map<String, Object> t : s.tools()) {
            out.add(t.get("name"));
        }
        return out;
    }
}
