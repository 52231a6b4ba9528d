package dev.agentwarden.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;

/**
 * Publishes a signed release manifest for a Squad coordinator and checks installs against it with
 * the real {@code warden release} and {@code warden canonicalize} commands (in process): a
 * re-stamped install verifies through the {@code squad-template} normalization, an edited one is
 * a MISMATCH, a replayed older manifest and an expired one are untrusted and only ever UNREGISTERED.
 */
final class ReleaseDemo implements DemoSection {
    private static final String TEMPLATE = """
            ---
            name: Squad
            description: "Your AI team."
            tools: ["*"]
            ---
            <!-- SQUAD_COORDINATOR_CANARY_HEAD_b7d2 -->
            <!-- version: 0.13.1 -->

            - **Version:** 0.13.1 (stamped during install/upgrade). Include it as `Squad v{version}`.

            <!-- SQUAD:TEAM-CAPABILITIES:BEGIN -->
            <!-- SQUAD:TEAM-CAPABILITIES:END -->

            ## Team Mode
            Route work to specialists; never do domain work yourself.
            <!-- SQUAD_COORDINATOR_CANARY_a8f3 -->
            """;

    private Path work;
    private PrintWriter out;
    private Map<String, String> hostEnv;

    @Override
    public String title() {
        return "Signed release manifest: publish, verify, and check installs (warden release)";
    }

    @Override
    public void run(DemoEnv env) throws Exception {
        work = env.workDir();
        out = env.out();
        hostEnv = env.hostEnv();
        Files.writeString(work.resolve("squad.agent.md"), TEMPLATE, StandardCharsets.UTF_8);
        String key = "--key";
        warden(0, "release", "keygen", "--out", p("keys"), "--name", "alice");
        warden(0, "release", "keygen", "--out", p("keys"), "--name", "bob");
        warden(0, "release", "root", "init", key, p("keys/alice.pub.pem"), key, p("keys/bob.pub.pem"),
                "--threshold", "2", "--expires", "365d", "--out", p("trust/root.json"));
        warden(0, "release", "sign", key, p("keys/alice.key.pem"), p("trust/root.json"));
        warden(0, "release", "sign", key, p("keys/bob.key.pem"), p("trust/root.json"));
        warden(0, "release", "add", "--manifest", p("release/manifest.json"), "--file", p("squad.agent.md"),
                "--agent-id", "squad", "--agent-version", "0.13.1", "--client-id", "copilot-cli",
                "--client-version", "1.0.3", "--normalization", "squad-template", "--expires", "90d");
        warden(1, "release", "verify", "--root", p("trust/root.json"), "--project-dir", p("project"),
                p("release/manifest.json"));
        warden(0, "release", "sign", key, p("keys/alice.key.pem"), p("release/manifest.json"));
        warden(0, "release", "sign", key, p("keys/bob.key.pem"), p("release/manifest.json"));
        Files.copy(work.resolve("release/manifest.json"), work.resolve("release/manifest-v1.json"),
                StandardCopyOption.REPLACE_EXISTING);
        warden(0, "release", "verify", "--root", p("trust/root.json"), "--project-dir", p("project"),
                p("release/manifest.json"));

        out.println("# an install re-stamped with another version and a generated team block:");
        Files.writeString(work.resolve("installed.agent.md"), TEMPLATE.replace("0.13.1", "0.13.1-preview.2")
                .replace("<!-- SQUAD:TEAM-CAPABILITIES:END -->", "| Flight | Lead |\n<!-- SQUAD:TEAM-CAPABILITIES:END -->"));
        lookup(0, "installed.agent.md");
        out.println("# an install whose instructions were edited:");
        Files.writeString(work.resolve("edited.agent.md"), TEMPLATE.replace("never do domain work yourself",
                "do the work yourself"));
        lookup(1, "edited.agent.md");

        out.println("# the publisher registers 0.13.2; both keys sign manifest version 2:");
        warden(0, "release", "add", "--manifest", p("release/manifest.json"), "--file", p("squad.agent.md"),
                "--agent-id", "squad", "--agent-version", "0.13.2", "--client-id", "copilot-cli",
                "--client-version", "1.0.3", "--normalization", "squad-template");
        warden(0, "release", "sign", key, p("keys/alice.key.pem"), p("release/manifest.json"));
        warden(0, "release", "sign", key, p("keys/bob.key.pem"), p("release/manifest.json"));
        warden(0, "release", "verify", "--root", p("trust/root.json"), "--project-dir", p("project"),
                p("release/manifest.json"));
        out.println("# an attacker replays the older, still validly signed version 1:");
        warden(1, "release", "verify", "--root", p("trust/root.json"), "--project-dir", p("project"),
                p("release/manifest-v1.json"));
        out.println("# four months on the 90-day manifest has expired: untrusted, so UNREGISTERED, never VERIFIED:");
        warden(3, "release", "lookup", "--root", p("trust/root.json"), "--manifest", p("release/manifest.json"),
                "--at", Instant.now().plus(Duration.ofDays(120)).truncatedTo(
                        ChronoUnit.SECONDS).toString(), "--no-record", "--project-dir", p("project"),
                "--agent-version", "0.13.1", "--client-id", "copilot-cli", "--client-version", "1.0.3",
                "--file", p("installed.agent.md"), "--require-trusted-manifest");

        out.println("# key ids and root signatures cover RFC 8785 JSON; numbers print as ECMAScript does:");
        Files.writeString(work.resolve("doc.json"), "{\"b\": 2e23, \"a\": [1.0, 5e-324, \"\\u00e9\"]}");
        warden(0, "canonicalize", p("doc.json"));
        out.println();
    }

    private void lookup(int expectedExit, String file) {
        warden(expectedExit, "release", "lookup", "--root", p("trust/root.json"), "--manifest", p("release/manifest.json"),
                "--project-dir", p("project"), "--agent-version", "0.13.1", "--client-id", "copilot-cli",
                "--client-version", "1.0.3", "--file", p(file));
    }

    /** Runs one command, prints it and its output with paths relative to the demo project. */
    private void warden(int expectedExit, String... args) {
        StringWriter buffer = new StringWriter();
        int exit = WardenCli.execute(args, new PrintWriter(buffer, true), new PrintWriter(buffer, true), hostEnv);
        String prefix = work.toString() + "/";
        out.println("$ warden " + String.join(" ", args).replace(prefix, ""));
        String text = buffer.toString().replace(prefix, "");
        for (String line : text.split("\n")) {
            if (!line.isEmpty()) {
                out.println("  " + line);
            }
        }
        out.println("  (exit " + exit + ")");
        out.flush();
        if (exit != expectedExit) {
            throw new IllegalStateException("expected exit " + expectedExit + " from warden " + String.join(" ", args));
        }
    }

    private String p(String relative) {
        return work.resolve(relative).toString();
    }
}
