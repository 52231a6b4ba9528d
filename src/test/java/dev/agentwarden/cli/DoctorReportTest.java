package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.cli.DoctorCommand.Finding;
import dev.agentwarden.cli.DoctorCommand.Section;
import dev.agentwarden.json.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link DoctorReport}: how the doctor's findings read as text and as JSON. */
class DoctorReportTest {
    private static final Path ROOT = Path.of("/p");

    private static DoctorReport report(List<Finding> findings) {
        Section log = new Section("decision log: /p/.warden/decisions", List.of(Finding.note("no decisions recorded yet")));
        RecentDecisionsCheck.Recent recent = new RecentDecisionsCheck.Recent(log, new ArrayDeque<>(), new ArrayDeque<>());
        return new DoctorReport(ROOT, List.of(new Section("manifest", findings), log), recent);
    }

    private static String text(DoctorReport report) {
        StringWriter out = new StringWriter();
        report.print(new PrintWriter(out, true));
        return out.toString();
    }

    @Test
    void print_eachStatus_hasItsLabelInAnEightColumnField() {
        String text = text(report(List.of(Finding.ok("loads"), Finding.note("no user layer"),
                Finding.problem("does not lint", "warden manifest lint"))));

        assertThat(text).isEqualTo("""
                warden doctor: /p

                manifest
                  ok      loads
                  note    no user layer
                  PROBLEM does not lint

                decision log: /p/.warden/decisions
                  note    no decisions recorded yet

                1 problem(s):
                  1. manifest: does not lint
                     fix: warden manifest lint
                """);
    }

    @Test
    void print_noProblem_endsAllInOrder() {
        DoctorReport report = report(List.of(Finding.ok("loads")));

        assertThat(report.allInOrder()).isTrue();
        assertThat(text(report)).endsWith("\nall in order\n");
    }

    @Test
    @SuppressWarnings("unchecked")
    void json_statusIsTheLowerCaseWireName_andProblemsCarryTheirFix() {
        DoctorReport report = report(List.of(Finding.ok("loads"), Finding.problem("does not lint", "warden manifest lint")));

        Map<String, Object> json = (Map<String, Object>) Json.parse(report.json(null));

        assertThat(report.allInOrder()).isFalse();
        assertThat(json).containsEntry("ok", false).containsEntry("project", "/p");
        List<Map<String, Object>> sections = (List<Map<String, Object>>) json.get("sections");
        assertThat((List<Map<String, Object>>) sections.get(0).get("findings")).containsExactly(
                Map.of("status", "ok", "text", "loads"),
                Map.of("status", "problem", "text", "does not lint", "fix", "warden manifest lint"));
        assertThat((List<Object>) json.get("problems")).containsExactly(
                Map.of("section", "manifest", "problem", "does not lint", "fix", "warden manifest lint"));
    }
}
