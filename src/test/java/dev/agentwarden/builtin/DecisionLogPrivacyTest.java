package dev.agentwarden.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.testing.HostPayloads;
import dev.agentwarden.testing.InProcessDispatch;
import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real-looking secrets planted in a prompt, tool inputs and a tool response, dispatched through the
 * default manifest: none of them reaches a byte under {@code .warden/} (decision log, ledger), the
 * output of {@code warden log} or {@code warden report} (text, JSON and HTML), while what was asked
 * is still recorded around them.
 */
class DecisionLogPrivacyTest {
    static final List<String> SECRETS = List.of("AKIAIOSFODNN7EXAMPLE", "ghp_R2d2C3poBb8Xk9QzLmNo0PqRsTuVwXyZ1234",
            "sk-ant-api03-Xy9zQ2mN8pL4kJ7hG6fD5sA3qW1eR0tYuIoPaSd", "hunter2pass", "xoxb-123456789012-AbCdEfGhIjKl",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2");

    @TempDir
    Path project;
    @TempDir
    Path cache;

    @Test
    void plantedSecrets_reachNoLogLedgerOrReport() throws IOException {
        MutableClock clock = MutableClock.at("2026-05-04T10:00:00Z");
        InProcessDispatch dispatch = new InProcessDispatch(cache, clock);
        List<Map<String, Object>> session = List.of(
                event("UserPromptSubmit", "prompt", "deploy with key AKIAIOSFODNN7EXAMPLE and token "
                        + "ghp_R2d2C3poBb8Xk9QzLmNo0PqRsTuVwXyZ1234\nsecond line sk-ant-api03-Xy9zQ2mN8pL4kJ7hG6fD5sA3qW1eR0tYuIoPaSd"),
                event("PreToolUse", "tool_name", "Bash", "tool_input", Map.of("command",
                        "DB_PASSWORD=hunter2pass psql postgres://admin:hunter2pass@db/app && curl -H 'Authorization: Bearer "
                                + "xoxb-123456789012-AbCdEfGhIjKl' https://x")),
                event("PreToolUse", "tool_name", "Bash", "tool_input", Map.of("command",
                        "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY; rm -rf /")),
                event("PostToolUse", "tool_name", "Bash", "tool_input", Map.of("command", "cat ~/.ssh/id_rsa"),
                        "tool_response", Map.of("stdout", "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2\n"
                                + "-----END RSA PRIVATE KEY-----")),
                event("PreToolUse", "tool_name", "Write", "tool_input", Map.of("file_path", "/w/.env", "content",
                        "ANTHROPIC_API_KEY=sk-ant-api03-Xy9zQ2mN8pL4kJ7hG6fD5sA3qW1eR0tYuIoPaSd")),
                event("PreToolUse", "tool_name", "Task", "tool_input", Map.of("prompt", "use AKIAIOSFODNN7EXAMPLE",
                        "subagent_type", "Explore")),
                event("SubagentStart", "agent_id", "a1", "agent_type", "Explore"),
                event("SubagentStop", "agent_id", "a1", "agent_type", "Explore", "last_assistant_message",
                        "done with ghp_R2d2C3poBb8Xk9QzLmNo0PqRsTuVwXyZ1234"));
        for (Map<String, Object> payload : session) {
            dispatch.run("claude", Json.write(payload));
            clock.advance(Duration.ofSeconds(30));
        }

        List<String> leaks = new ArrayList<>();
        StringBuilder decisions = new StringBuilder();
        List<Path> written;
        try (Stream<Path> files = Files.walk(project.resolve(".warden"))) {
            written = files.filter(Files::isRegularFile).toList();
        }
        for (Path file : written) {
            String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
            if (file.toString().contains("decisions")) {
                decisions.append(text);
            }
            leaks.addAll(leaks(project.relativize(file).toString(), text));
        }
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("XDG_STATE_HOME", cache.resolve("xdg-state").toString());
        Path html = cache.resolve("report.html");
        for (String[] args : List.of(new String[] {"log", "--limit", "100"}, new String[] {"log", "--json"},
                new String[] {"report"}, new String[] {"report", "--json", "--html", html.toString()})) {
            List<String> argv = new ArrayList<>(List.of(args));
            argv.addAll(List.of("--project-dir", project.toString()));
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int exit = dev.agentwarden.cli.WardenCli.execute(argv.toArray(String[]::new), new PrintWriter(out, true),
                    new PrintWriter(err, true), env);
            assertThat(exit).as("%s: %s", argv, err).isZero();
            leaks.addAll(leaks(String.join(" ", args), out + "\n" + err));
        }
        leaks.addAll(leaks("report.html", Files.readString(html)));

        assertThat(leaks).isEmpty();
        assertThat(decisions).contains("\"asked\":\"deploy with key [REDACTED:aws_key] and token [REDACTED:github_token]\"")
                .contains("DB_PASSWORD=[REDACTED:secret] psql postgres://admin:[REDACTED:url_password]@db/app")
                .contains("\"asked\":\"/w/.env\"");
    }

    private static List<String> leaks(String where, String text) {
        List<String> out = new ArrayList<>();
        for (String secret : SECRETS) {
            if (text.contains(secret)) {
                out.add(where + " contains " + secret);
            }
        }
        return out;
    }

    Map<String, Object> event(String nativeEvent, Object... kv) {
        Map<String, Object> p = HostPayloads.claude(nativeEvent, kv);
        p.put("cwd", project.toString());
        return p;
    }
}
