package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ledger stats} and {@code guard derive} in their plain form run without picocli and print
 * what picocli's run of the same command line prints, with the same exit code; every other command
 * line is left to picocli.
 */
class DirectCommandsTest {
    @TempDir
    Path tmp;

    private record Run(Integer exit, String out, String err) {
    }

    @Test
    void plainForms_printWhatPicocliPrints_withItsExitCode() throws IOException {
        Path project = ledgerProject();
        Path noDir = tmp.resolve("ledger-dir-is-a-file");
        Files.createDirectories(noDir.resolve(".warden/state"));
        Files.writeString(noDir.resolve(".warden/state/ledger"), "not a directory\n");
        Path badManifest = Files.writeString(tmp.resolve("bad.yaml"), "schema_version: [\n");
        String p = project.toString();
        List<String[]> lines = List.of(
                args("ledger", "stats", "--json", "--project-dir", p),
                args("ledger", "stats", "--project-dir=" + p),
                args("ledger", "stats", "--project-dir", p, "--manifest", tmp.resolve("missing.yaml").toString()),
                args("ledger", "stats", "--manifest=" + badManifest, "--json", "--project-dir", p),
                args("ledger", "stats", "--json", "--project-dir", noDir.toString()),
                args("ledger", "stats", "--project-dir", noDir.toString()),
                args("guard", "derive", "--since", "2026-08-01", "--project-dir", p, "--json"),
                args("guard", "derive", "--since=2026-08-01T12:00:00Z", "--project-dir", p),
                args("guard", "derive", "--project-dir", p),
                args("guard", "derive", "--project-dir", p, "--since", "yesterday"),
                args("guard", "derive", "--json", "--project-dir", noDir.toString()));
        List<Integer> exits = new ArrayList<>();
        for (String[] line : lines) {
            Run direct = direct(line);
            Run parsed = parsed(line);
            String shown = String.join(" ", line);

            assertThat(direct.exit()).as("run without picocli: " + shown).isNotNull();
            assertThat(direct).as(shown).isEqualTo(parsed);
            exits.add(direct.exit());
        }
        assertThat(exits).as("successes and failures both compared").contains(0).anyMatch(e -> e != 0);
        assertThat(parsed(lines.get(0)).out()).contains("\"chain_lines\":");
        assertThat(parsed(lines.get(4)).err()).contains("warden ledger stats: ");
    }

    @Test
    void otherForms_areLeftToPicocli() throws IOException {
        String p = ledgerProject().toString();
        List<String[]> lines = List.of(
                args("ledger", "stats", "--json", "--json", "--project-dir", p),
                args("ledger", "stats", "--project-dir", p, "--project-dir", p),
                args("ledger", "stats", "--help"),
                args("ledger", "stats", "-h"),
                args("ledger", "stats", "--project-dir"),
                args("ledger", "stats", "--project-dir", "--json"),
                args("ledger", "stats", "--project-dir="),
                args("ledger", "stats", "--project-dir", "@" + p),
                args("ledger", "stats", "@" + tmp.resolve("args")),
                args("ledger", "stats", "--since", "2026-08-01", "--project-dir", p),
                args("ledger", "stats", "--project-dir", p, "extra"),
                args("ledger", "stats", "--json=true", "--project-dir", p),
                args("ledger", "verify", "--project-dir", p),
                args("guard", "derive", "--manifest", "m.yaml", "--project-dir", p),
                args("guard", "derive", "--since", "-1", "--project-dir", p),
                args("guard"),
                args("ledger"),
                args());
        for (String[] line : lines) {
            assertThat(direct(line).exit()).as(String.join(" ", line)).isNull();
        }
        Run repeated = parsed(lines.get(0));
        assertThat(repeated.exit()).as("picocli's answer to a repeated option").isNotZero();
    }

    private static String[] args(String... words) {
        return words;
    }

    private static Run direct(String[] line) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Integer exit = DirectCommands.execute(line, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(exit, out.toString(), err.toString());
    }

    private static Run parsed(String[] line) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = WardenCli.executeParsed(line, new PrintWriter(out, true), new PrintWriter(err, true), System.getenv());
        return new Run(exit, out.toString(), err.toString());
    }

    /** The generated ledger of {@code BulkReadEquivalenceTest}, its 2026-08 segment with odd and torn lines. */
    private Path ledgerProject() throws IOException {
        Path project = tmp.resolve("project");
        Path dir = Files.createDirectories(project.resolve(".warden/state/ledger"));
        for (String month : List.of("2026-06", "2026-07", "2026-09", "2026-10", "2026-11")) {
            Files.write(dir.resolve(month + ".jsonl"), resource("/ledger/bulk/clean/" + month + ".jsonl"));
        }
        Files.write(dir.resolve("2026-08.jsonl"), resource("/ledger/bulk/odd/2026-08.jsonl"));
        Files.write(dir.resolve("head.json"), resource("/ledger/bulk/clean/head.json"));
        return project;
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = DirectCommandsTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        }
    }
}
