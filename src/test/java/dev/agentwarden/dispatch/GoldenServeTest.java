package dev.agentwarden.dispatch;

import org.junit.jupiter.api.Order;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.server.WardenServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The golden corpus ({@link GoldenCorpus}) over HTTP through an in-process {@link WardenServer}:
 * each case must match its expectation and give byte-identical stdout, the same exit code and the
 * same (one-line) note as the in-process dispatch of the case ({@link GoldenInProcess}: in a fresh
 * project, the run {@link GoldenDispatchTest} checks). A server's environment is fixed at start, so
 * cases run on one server per distinct case environment, all in this class's one project.
 */
@Order(2) // the longest unit class whose cases run in order starts early, not last
class GoldenServeTest {
    private static final String TOKEN = "golden-token";
    @RegisterExtension
    static final GoldenCorpus.Project project = new GoldenCorpus.Project();
    private static final Map<Map<String, String>, WardenServer> SERVERS = new HashMap<>();
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @AfterAll
    static void stopServers() throws IOException {
        SERVERS.values().forEach(WardenServer::close);
    }

    static Stream<Named<GoldenCorpus.Case>> cases() throws IOException {
        return GoldenCorpus.cases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void serve_http_matchesGoldenAndInProcess(GoldenCorpus.Case c) throws Exception {
        Assumptions.assumeTrue(c.event() == null, "an HTTP hook's path names no canonical event (--event)");
        WardenServer server = serverFor(project.env(c), c.manifest());
        String path = "/dispatch/" + c.host() + (c.nativeEvent() == null ? "" : "/" + c.nativeEvent());
        HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.ofByteArray(c.stdin())).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));

        assertThat(response.statusCode()).as("status").isEqualTo(200);
        String note = response.headers().firstValue("X-Warden-Note").orElse("");
        int exit = Integer.parseInt(response.headers().firstValue("X-Warden-Exit").orElseThrow());
        GoldenCorpus.Outcome inProcess = GoldenInProcess.of(c).outcome();
        assertThat(GoldenCorpus.normalized(response.body())).as("stdout, byte for byte but for gate sessions")
                .isEqualTo(GoldenCorpus.normalized(inProcess.stdout()));
        assertThat(exit).as("exit code").isEqualTo(inProcess.exitCode());
        String stderr = inProcess.stderr().endsWith("\n")
                ? inProcess.stderr().substring(0, inProcess.stderr().length() - 1) : inProcess.stderr();
        assertThat(note).as("note").isEqualTo(noteOf(stderr));
        GoldenCorpus.assertMatches(c, new GoldenCorpus.Outcome(exit, response.body(), stderr));
    }

    /** The note as the server folds it: lines joined by " | ", non-ASCII as '?'. */
    private static String noteOf(String stderr) {
        StringBuilder b = new StringBuilder();
        for (char ch : stderr.toCharArray()) {
            b.append(ch == '\n' ? " | " : ch >= 0x20 && ch < 0x7f ? String.valueOf(ch) : "?");
        }
        return b.toString();
    }

    private static synchronized WardenServer serverFor(Map<String, String> env, Path manifest) throws IOException {
        Map<String, String> key = new java.util.HashMap<>(env);
        key.put("<manifest>", manifest.toString());
        WardenServer server = SERVERS.get(key);
        if (server == null) {
            server = WardenServer.start(0, null, manifest.toString(), TOKEN, 2, env, GoldenCorpus.CLOCK);
            SERVERS.put(key, server);
        }
        return server;
    }
}
