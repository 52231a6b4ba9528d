package dev.agentwarden.cli;

import dev.agentwarden.cli.DoctorCommand.Finding;
import dev.agentwarden.cli.DoctorCommand.Section;
import dev.agentwarden.json.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code warden doctor} prints from its sections: as text for people, or as one JSON object.
 * Both end with the problems, each with its section and fix.
 */
final class DoctorReport {
    private final Path root;
    private final List<Section> sections;
    private final RecentDecisionsCheck.Recent recent;
    private final List<Map<String, Object>> problems = new ArrayList<>();

    DoctorReport(Path root, List<Section> sections, RecentDecisionsCheck.Recent recent) {
        this.root = root;
        this.sections = sections;
        this.recent = recent;
        for (Section section : sections) {
            for (Finding f : section.findings()) {
                if (f.status() == Finding.Status.PROBLEM) {
                    Map<String, Object> p = new LinkedHashMap<>();
                    p.put("section", section.name());
                    p.put("problem", f.text());
                    p.put("fix", f.fix());
                    problems.add(p);
                }
            }
        }
    }

    boolean allInOrder() {
        return problems.isEmpty();
    }

    /** The report as one JSON object; {@code notInForce} is {@link NotInForce#line}'s warning or {@code null}. */
    String json(String notInForce) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("project", root.toString());
        json.put("ok", problems.isEmpty());
        json.put("not_in_force", notInForce);
        List<Object> list = new ArrayList<>();
        for (Section section : sections) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("name", section.name());
            List<Object> findings = new ArrayList<>();
            for (Finding f : section.findings()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("status", f.status().wire());
                m.put("text", f.text());
                if (f.fix() != null) {
                    m.put("fix", f.fix());
                }
                findings.add(m);
            }
            s.put("findings", findings);
            list.add(s);
        }
        json.put("sections", list);
        json.put("recent_decisions", new ArrayList<Object>(recent.decisions()));
        json.put("recent_errors", new ArrayList<Object>(recent.errors()));
        json.put("problems", problems);
        return Json.write(json);
    }

    /** The report as text: each section and its findings, the recent decisions as {@code warden log}'s table, then the problems. */
    void print(PrintWriter out) {
        out.println("warden doctor: " + root);
        for (Section section : sections) {
            out.println();
            out.println(section.name());
            for (Finding f : section.findings()) {
                String status = f.status().wire();
                out.println("  " + f.status().label() + " ".repeat(Math.max(1, 8 - status.length())) + f.text());
            }
            if (section == recent.section() && !recent.decisions().isEmpty()) {
                StringWriter table = new StringWriter();
                LogCommand.printTable(new PrintWriter(table), recent.decisions());
                table.toString().lines().forEach(l -> out.println("    " + l));
            }
        }
        out.println();
        if (problems.isEmpty()) {
            out.println("all in order");
            return;
        }
        out.println(problems.size() + " problem(s):");
        int n = 0;
        for (Map<String, Object> p : problems) {
            out.println("  " + ++n + ". " + p.get("section") + ": " + p.get("problem"));
            out.println("     fix: " + p.get("fix"));
        }
    }
}
