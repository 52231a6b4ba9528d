package dev.agentwarden.cli;

import dev.agentwarden.testing.WardenProcess;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The broken-manifest corpus ({@code src/test/resources/manifests/broken/<case>.yaml}): each case
 * is a mistake that once passed lint and switched a policy off. Beside it, {@code <case>.expected}
 * holds the lint exit code ({@code exit=}) and fragments of the output ({@code finding=}; one that
 * starts with {@code :} follows the file name, so it pins file:line, key and message). A
 * {@code # setup: PATH MODE [FIRST LINE]} comment creates a script under the project first
 * ({@code MODE} {@code dir} for a directory).
 */
class BrokenManifestCorpusTest {
    @TempDir
    Path project;

    static Stream<String> cases() throws IOException, URISyntaxException {
        Path dir = corpus();
        try (Stream<Path> files = Files.list(dir)) {
            List<String> names = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml"))
                    .map(n -> n.substring(0, n.length() - ".yaml".length())).sorted().toList();
            assertThat(names).as("the corpus").hasSizeGreaterThan(40);
            return names.stream();
        }
    }

    private static Path corpus() throws URISyntaxException {
        return Path.of(BrokenManifestCorpusTest.class.getResource("/manifests/broken").toURI());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void lintStrict_brokenManifest_reportsTheMistakeAtItsLine(String name) throws Exception {
        String yaml = Files.readString(corpus().resolve(name + ".yaml"), StandardCharsets.UTF_8);
        List<String> expected = Files.readAllLines(corpus().resolve(name + ".expected"), StandardCharsets.UTF_8);
        Path manifest = Files.writeString(project.resolve(name + ".yaml"), yaml);
        for (String line : yaml.lines().toList()) {
            if (line.startsWith("# setup: ")) {
                setUp(line.substring("# setup: ".length()).split(" ", 3));
            }
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code = WardenCli.execute(new String[] {"manifest", "lint", "--strict", manifest.toString(),
                "--project-dir", project.toString()}, new PrintWriter(out, true), new PrintWriter(err, true));

        List<String> findings = new ArrayList<>();
        List<String> codes = new ArrayList<>();
        int exit = -1;
        for (String line : expected) {
            if (line.startsWith("code=")) {
                codes.add(line.substring("code=".length()));
            } else if (line.startsWith("exit=")) {
                exit = Integer.parseInt(line.substring("exit=".length()));
            } else if (line.startsWith("finding=")) {
                String f = line.substring("finding=".length());
                findings.add(f.startsWith(":") ? manifest + f : f);
            }
        }
        assertThat(code).as(out.toString()).isEqualTo(exit);
        assertThat(findings).as("expected findings").isNotEmpty();
        for (String f : findings) {
            assertThat(out.toString()).contains(f);
        }
        assertThat(out.toString()).as("no parser jargon, no empty key").doesNotContain("<block").doesNotContain(": : ");
        assertThat(codes).as("expected message codes").isNotEmpty();
        for (String c : codes) {
            assertThat(out.toString()).contains(" [" + c + "]\n");
        }
        for (String line : out.toString().lines().toList()) {
            if (line.contains(": error: ") || line.contains(": warning: ")) {
                assertThat(line).as("every problem carries its code").matches(".* \\[[a-z-]+\\]$");
            }
        }
    }

    /** Every key of every built-in, and every concern key, is misspelled once in the corpus. */
    @org.junit.jupiter.api.Test
    void corpus_misspellsEveryBuiltinSettingAndConcernKeyOnce() throws Exception {
        List<String> names = cases().toList();
        List<String> missing = new ArrayList<>();
        for (dev.agentwarden.builtin.BuiltinDescriptor d : dev.agentwarden.builtin.Builtins.ALL) {
            for (String key : d.keys()) {
                String want = d.name() + "-" + key.replace('_', '-') + "-misspelled";
                if (!names.contains(want)) {
                    missing.add(want);
                }
            }
        }
        for (String key : List.of("args", "fail_closed", "severity", "posture", "tools", "timeout_ms",
                "skip_on_refusal_retry", "nudge_rank", "needs_payload_bodies", "escalate")) {
            String want = "concern-key-" + key.replace('_', '-') + "-misspelled";
            if (!names.contains(want)) {
                missing.add(want);
            }
        }
        assertThat(missing).as("corpus cases missing").isEmpty();
    }

    private void setUp(String[] words) throws IOException {
        Path target = project.resolve(words[0]);
        Files.createDirectories(target.getParent());
        if (words[1].equals("dir")) {
            Files.createDirectories(target);
            return;
        }
        String mode = words[1].equals("0755") ? "rwxr-xr-x" : "rw-r--r--";
        WardenProcess.writeScript(target, (words.length > 2 ? words[2] : "#!/bin/sh") + "\nexit 0\n", mode);
    }
}
