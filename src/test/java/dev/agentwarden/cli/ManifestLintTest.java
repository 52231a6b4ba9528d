package dev.agentwarden.cli;

import dev.agentwarden.testing.WardenProcess;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.manifest.ManifestCompiler;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code warden manifest lint [FILE] [--strict]}: exit 0 clean, 1 errors, 2 unreadable; findings name file:line and key. */
class ManifestLintTest {
    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {
    }

    private static Run warden(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = WardenCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    private Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        return Files.writeString(p, text);
    }

    @Test
    void lint_cleanManifest_exit0() throws IOException {
        Path m = write("m.yaml", "schema_version: 1\nconcerns:\n  a: {script: builtin:block-no-verify}\nplatforms:\n  claude:\n    pre_tool_use: [a]\n");

        Run r = warden("manifest", "lint", m.toString(), "--project-dir", dir.toString());

        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEqualTo(m + ": ok\n");
    }

    static Stream<Arguments> errors() {
        return Stream.of(
                Arguments.of("unknownConcern", "schema_version: 1\nconcerns: {}\nplatforms:\n  claude:\n    stop: [ghost]\n",
                        ":5: error: platforms.claude.stop: unknown concern 'ghost'"),
                Arguments.of("unknownEvent", "schema_version: 1\nconcerns: {}\nplatforms:\n  claude:\n    teatime: []\n",
                        ":5: error: platforms.claude.teatime: unknown event 'teatime'"),
                Arguments.of("unknownHost", "schema_version: 1\nconcerns: {}\nplatforms:\n  emacs: {}\n",
                        ":4: error: platforms.emacs: unknown host 'emacs'"),
                Arguments.of("duplicateName", "schema_version: 1\nconcerns:\n  a: {script: builtin:context-note}\n  a: {script: builtin:context-note}\nplatforms: {}\n",
                        ":4: error: concerns.a: duplicate key 'a'"),
                Arguments.of("badType", "schema_version: 1\nconcerns:\n  a:\n    script: builtin:context-note\n    tools: {Bash: true}\nplatforms: {}\n",
                        ":5: error: concerns.a.tools: must be a list of strings, found a mapping"),
                Arguments.of("missingScriptKey", "schema_version: 1\nconcerns:\n  a:\n    args: []\nplatforms: {}\n",
                        ":4: error: concerns.a.script: missing script"),
                Arguments.of("missingScriptFile", "schema_version: 1\nconcerns:\n  a:\n    fail_closed: true\n    script: hooks/gone.sh\nplatforms: {}\n",
                        ":5: error: concerns.a.script: script not found: "),
                Arguments.of("duplicateNudgeRank",
                        "schema_version: 1\nconcerns:\n  a: {script: builtin:context-note, nudge_rank: 3}\n  b:\n    script: builtin:context-note\n    nudge_rank: 3\nplatforms: {}\n",
                        ":6: error: concerns.b.nudge_rank: rank 3 already used by 'a'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("errors")
    void lint_error_exit1NamingFileLineAndKey(String name, String yaml, String finding) throws IOException {
        Path m = write(name + ".yaml", yaml);

        Run r = warden("manifest", "lint", m.toString(), "--project-dir", dir.toString());

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains(m + finding);
        assertThat(r.out()).containsPattern(Pattern.quote(m.toString()) + ": \\d+ error\\(s\\)\n$");
    }

    @Test
    void lint_warningOnly_exit0_strictExit1() throws IOException {
        Path m = write("m.yaml", "schema_version: 1\nconcerns:\n  ledger: {script: src/scripts/hooks/subagent_ledger_hook.ts}\n"
                + "platforms: {}\nextras: {a: 1}\n");

        Run lax = warden("manifest", "lint", m.toString());
        Run strict = warden("manifest", "lint", m.toString(), "--strict");

        assertThat(lax.exit()).isZero();
        assertThat(lax.out()).as("an agent-config manifest's unknown keys stay warnings")
                .contains(m + ":5: warning: extras: unknown top-level key").endsWith(m + ": ok, 1 warning(s)\n");
        assertThat(strict.exit()).isEqualTo(1);
        assertThat(strict.out()).endsWith(m + ": 1 error(s)\n");
    }

    static Stream<Arguments> unreadable() {
        return Stream.of(
                Arguments.of("notYaml", "schema_version: 1\nconcerns: {a: [\n"),
                Arguments.of("notAMapping", "- a\n- b\n"),
                Arguments.of("binary", "\u0000\u0001\u0002"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unreadable")
    void lint_unreadable_exit2(String name, String text) throws IOException {
        Path m = write(name + ".yaml", text);

        Run r = warden("manifest", "lint", m.toString());

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).startsWith(m + ":").contains(": error: ");
    }

    @Test
    void lint_missingFile_exit2() {
        Path m = dir.resolve("absent.yaml");

        Run r = warden("manifest", "lint", m.toString());

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).startsWith(m + ":0: error: ").contains("cannot read");
    }

    @Test
    void lint_noFile_lintsProjectManifestInForce() throws IOException {
        write(".warden/manifest.yaml", "schema_version: 1\nconcerns: {}\nplatforms:\n  claude:\n    stop: [ghost]\n");

        Run project = warden("manifest", "lint", "--project-dir", dir.toString());
        Run builtin = warden("manifest", "lint", "--project-dir", dir.resolve("elsewhere").toString());

        assertThat(project.exit()).isEqualTo(1);
        assertThat(project.out()).contains(dir.resolve(".warden/manifest.yaml") + ":5: error: platforms.claude.stop");
        assertThat(builtin.exit()).isZero();
        assertThat(builtin.out()).isEqualTo("builtin:default-manifest.yaml: ok\n");
    }

    /**
     * The agent-config-shaped manifest compiles as is; lint then wants every command script to
     * exist. Without the project's scripts it names each one at its line; with them it is clean.
     */
    @Test
    void lint_agentConfigShapedManifest_missingScriptsByLine_thenClean() throws Exception {
        Path m;
        try (InputStream in = ManifestLintTest.class.getResourceAsStream("/manifest/agent-config-shaped.yaml")) {
            m = Files.write(dir.resolve("hook_manifest.yaml"), in.readAllBytes());
        }
        List<String> lines = Files.readAllLines(m);

        Run missing = warden("manifest", "lint", m.toString(), "--project-dir", dir.toString());

        assertThat(missing.exit()).isEqualTo(1);
        List<String> findings = missing.out().lines().filter(l -> l.contains(": error: ")).toList();
        long commands = ManifestCompiler.compile("x", Files.readString(m), "x").manifest().concerns().values().stream()
                .filter(c -> !c.isBuiltin()).count();
        assertThat(commands).as("all but the built-in twins").isGreaterThanOrEqualTo(30);
        assertThat(findings).hasSize((int) commands).noneMatch(l -> l.contains("concerns.block-no-verify.script"));
        List<String> scripts = new ArrayList<>();
        Pattern finding = Pattern.compile(Pattern.quote(m.toString()) + ":(\\d+): error: concerns\\.([a-z-]+)\\.script: script not found: (\\S+) ");
        for (String l : findings) {
            Matcher f = finding.matcher(l);
            assertThat(f.find()).as(l).isTrue();
            String scriptLine = lines.get(Integer.parseInt(f.group(1)) - 1);
            assertThat(scriptLine).as("the line named holds that script").isEqualTo("    script: " + dir.relativize(Path.of(f.group(3))));
            scripts.add(f.group(3));
        }

        for (String s : scripts) {
            Files.createDirectories(Path.of(s).getParent());
            WardenProcess.writeScript(Path.of(s), "#!/bin/sh\n", "rwxr-xr-x");
        }
        Run clean = warden("manifest", "lint", m.toString(), "--project-dir", dir.toString(), "--strict");

        assertThat(clean.exit()).as(clean.out()).isZero();
        assertThat(clean.out()).isEqualTo(m + ": ok\n");
    }
}
