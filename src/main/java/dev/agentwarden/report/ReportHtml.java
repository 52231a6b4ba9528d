package dev.agentwarden.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@link Report} as one self-contained HTML page: inline CSS and inline SVG charts, no script, no
 * external asset. {@code warden dashboard} serves the same {@link #sections} in the same {@link #page}. Each chart is an {@code <svg data-chart="…">} whose bars carry their numbers
 * ({@code data-count}, {@code data-rate}), so that a browser test can check what was drawn.
 */
public final class ReportHtml {
    private static final String[] VERDICT_COLORS = {"#4caf50", "#ffb300", "#e53935", "#6a1b9a", "#9e9e9e"};
    private static final int WIDTH = 900;

    private ReportHtml() {
    }

    /** The whole page: {@link #page} around {@link #sections}. */
    public static String render(Report report) {
        return page("Agent Warden report", sections(report), "");
    }

    /**
     * A page with the report's style: {@code title} as its heading, then {@code body} (HTML), then
     * {@code tail} (HTML placed last in the body, such as a script; empty for the file).
     */
    public static String page(String title, String body, String tail) {
        StringBuilder h = new StringBuilder(body.length() + tail.length() + 2048);
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>");
        text(h, title);
        h.append("</title>\n<style>")
                .append("body{font:14px system-ui,sans-serif;margin:2em;color:#222}h1{font-size:1.5em}h2{margin-top:2em;"
                        + "font-size:1.15em}table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid #ddd;"
                        + "text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}code{background:#f4f4f4}"
                        + "svg text{font:11px system-ui,sans-serif}.legend span{display:inline-block;margin-right:1em}")
                .append("</style></head><body>\n<h1>");
        text(h, title);
        h.append("</h1>\n").append(body).append(tail).append("</body></html>\n");
        return h.toString();
    }

    /** The report's views, from its summary line to the list of what it does not show: the body of {@link #render}. */
    @SuppressWarnings("unchecked")
    public static String sections(Report report) {
        Map<String, Object> r = report.toJson();
        Map<String, Object> d = (Map<String, Object>) r.get("decisions");
        StringBuilder h = new StringBuilder(64 * 1024);
        h.append("<p id=\"summary\">");
        text(h, "Projects: " + String.join(", ", (List<String>) r.get("projects")));
        h.append("<br>");
        h.append("<span id=\"total-decisions\" data-count=\"").append(d.get("total")).append("\">").append(d.get("total"))
                .append("</span> decisions");
        if (d.get("first") != null) {
            text(h, " from " + d.get("first") + " to " + d.get("last"));
        }
        if (r.get("since") != null) {
            text(h, " (since " + r.get("since") + ")");
        }
        h.append("; generated ");
        text(h, String.valueOf(r.get("generated")));
        h.append("</p>\n");
        overTime(h, (Map<String, Object>) d.get("over_time"));
        mostRefused(h, (List<Object>) d.get("most_refused"));
        concerns(h, (List<Object>) d.get("concerns"));
        sessions(h, (Map<String, Object>) d.get("sessions"));
        subagents(h, (List<Object>) r.get("subagents"));
        spawnGuard(h, (List<Object>) r.get("spawn_guard"));
        integrity(h, (Map<String, Object>) d.get("integrity"));
        latency(h, (List<Object>) d.get("latency"));
        inventoryDrift(h, (Map<String, Object>) r.get("inventory_drift"));
        List<Object> missing = (List<Object>) r.get("missing");
        if (!missing.isEmpty()) {
            h.append("<h2>Not in this report</h2><ul id=\"missing\">");
            for (Object m : missing) {
                h.append("<li>");
                text(h, String.valueOf(m));
                h.append("</li>");
            }
            h.append("</ul>\n");
        }
        return h.toString();
    }

    @SuppressWarnings("unchecked")
    private static void overTime(StringBuilder h, Map<String, Object> o) {
        List<Object> rows = (List<Object>) o.get("rows");
        h.append("<section id=\"over-time\"><h2>Decisions over time, by verdict (per ").append(o.get("bucket"))
                .append(", UTC)</h2>\n<div class=\"legend\">");
        List<String> verdicts = new ArrayList<>(DecisionStats.VERDICTS);
        verdicts.add("other");
        for (int i = 0; i < verdicts.size(); i++) {
            h.append("<span><svg width=\"10\" height=\"10\"><rect width=\"10\" height=\"10\" fill=\"").append(VERDICT_COLORS[i])
                    .append("\"/></svg> ").append(verdicts.get(i)).append("</span>");
        }
        h.append("</div>\n");
        int height = 220;
        long max = 1;
        for (Object x : rows) {
            long sum = 0;
            for (String v : verdicts) {
                sum += (Long) ((Map<String, Object>) x).get(v);
            }
            max = Math.max(max, sum);
        }
        double slot = rows.isEmpty() ? WIDTH : (double) (WIDTH - 40) / rows.size();
        h.append("<svg data-chart=\"over-time\" width=\"").append(WIDTH).append("\" height=\"").append(height + 40)
                .append("\" role=\"img\">");
        h.append("<text x=\"0\" y=\"12\">").append(max).append("</text>");
        for (int i = 0; i < rows.size(); i++) {
            Map<String, Object> row = (Map<String, Object>) rows.get(i);
            double y = height + 10;
            double x = 40 + i * slot;
            for (int v = 0; v < verdicts.size(); v++) {
                long n = (Long) row.get(verdicts.get(v));
                if (n == 0) {
                    continue;
                }
                double bh = (double) n * height / max;
                y -= bh;
                h.append("<rect class=\"bar\" data-t=\"").append(row.get("t")).append("\" data-verdict=\"")
                        .append(verdicts.get(v)).append("\" data-count=\"").append(n).append("\" x=\"").append(fmt(x))
                        .append("\" y=\"").append(fmt(y)).append("\" width=\"").append(fmt(Math.max(1, slot - 2)))
                        .append("\" height=\"").append(fmt(bh)).append("\" fill=\"").append(VERDICT_COLORS[v])
                        .append("\"><title>").append(row.get("t")).append(' ').append(verdicts.get(v)).append(": ").append(n)
                        .append("</title></rect>");
            }
            if (i == 0 || i == rows.size() - 1) {
                h.append("<text x=\"").append(fmt(x)).append("\" y=\"").append(height + 30).append("\">").append(row.get("t"))
                        .append("</text>");
            }
        }
        h.append("</svg></section>\n");
    }

    @SuppressWarnings("unchecked")
    private static void mostRefused(StringBuilder h, List<Object> rows) {
        h.append("<section id=\"most-refused\"><h2>Most refused</h2>\n");
        List<String> labels = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        for (Object o : rows) {
            Map<String, Object> row = (Map<String, Object>) o;
            labels.add(ReportText.oneLine((String) row.get("asked"), 80));
            counts.add((Long) row.get("count"));
        }
        hbars(h, "most-refused", labels, counts, "#e53935");
        h.append("</section>\n");
    }

    @SuppressWarnings("unchecked")
    private static void concerns(StringBuilder h, List<Object> rows) {
        h.append("<section id=\"concerns\"><h2>Concerns: outcomes</h2>\n<table><tr><th>concern</th>");
        for (String o : DecisionStats.OUTCOMES) {
            h.append("<th>").append(o).append("</th>");
        }
        h.append("</tr>");
        List<String> labels = new ArrayList<>();
        List<Long> refusals = new ArrayList<>();
        for (Object x : rows) {
            Map<String, Object> c = (Map<String, Object>) x;
            h.append("<tr><td>");
            text(h, String.valueOf(c.get("name")));
            h.append("</td>");
            for (String o : DecisionStats.OUTCOMES) {
                h.append("<td class=\"n\">").append(c.get(o)).append("</td>");
            }
            h.append("</tr>");
            labels.add(String.valueOf(c.get("name")));
            refusals.add((Long) c.get("block") + (Long) c.get("halt") + (Long) c.get("would_block"));
        }
        h.append("</table>\n<p>Refusals per concern (block, halt, and shadow would-block):</p>");
        hbars(h, "concern-refusals", labels, refusals, "#fb8c00");
        h.append("</section>\n");
    }

    @SuppressWarnings("unchecked")
    private static void sessions(StringBuilder h, Map<String, Object> s) {
        h.append("<section id=\"sessions\"><h2>Sessions and their outcomes</h2>\n<p><span data-count=\"")
                .append(s.get("total")).append("\" id=\"session-total\">").append(s.get("total"))
                .append("</span> sessions; ").append(s.get("with_block")).append(" with a refusal; ")
                .append(s.get("with_halt")).append(" halted.</p>\n<table><tr><th>session</th><th>decisions</th><th>allow</th>"
                        + "<th>warn</th><th>block</th><th>halt</th><th>outcome</th><th>first</th><th>last</th></tr>");
        for (Object o : (List<Object>) s.get("top")) {
            Map<String, Object> row = (Map<String, Object>) o;
            h.append("<tr><td><code>");
            text(h, String.valueOf(row.get("session")));
            h.append("</code></td>");
            for (String k : List.of("decisions", "allow", "warn", "block", "halt")) {
                h.append("<td class=\"n\">").append(row.get(k)).append("</td>");
            }
            h.append("<td>").append(row.get("outcome")).append("</td><td>");
            text(h, String.valueOf(row.get("first")));
            h.append("</td><td>");
            text(h, String.valueOf(row.get("last")));
            h.append("</td></tr>");
        }
        h.append("</table>\n<h3>Strikes and escalations</h3>\n<p><span id=\"struck-total\">").append(s.get("with_strikes"))
                .append("</span> sessions with strikes; <span id=\"escalated-total\">").append(s.get("with_escalation"))
                .append("</span> escalated.</p>\n<table id=\"struck\"><tr><th>session</th><th>strikes</th><th>escalations</th>"
                        + "<th>first</th><th>last</th></tr>");
        for (Object o : (List<Object>) s.get("struck")) {
            Map<String, Object> row = (Map<String, Object>) o;
            h.append("<tr><td><code>");
            text(h, String.valueOf(row.get("session")));
            h.append("</code></td><td class=\"n\">").append(row.get("strikes")).append("</td><td class=\"n\">")
                    .append(row.get("escalations")).append("</td><td>");
            text(h, String.valueOf(row.get("first")));
            h.append("</td><td>");
            text(h, String.valueOf(row.get("last")));
            h.append("</td></tr>");
        }
        h.append("</table></section>\n");
    }

    @SuppressWarnings("unchecked")
    private static void subagents(StringBuilder h, List<Object> projects) {
        h.append("<section id=\"subagents\"><h2>Subagent runs (from the ledger)</h2>\n<table><tr><th>project</th>"
                + "<th>agent type</th><th>started</th><th>stopped</th><th>never returned (reaped)</th><th>open now</th>"
                + "<th>p50 ms</th><th>p90 ms</th><th>p99 ms</th></tr>");
        List<String> labels = new ArrayList<>();
        List<Long> p99 = new ArrayList<>();
        for (Object o : projects) {
            Map<String, Object> p = (Map<String, Object>) o;
            Map<String, Object> open = (Map<String, Object>) p.get("open_now");
            Map<String, Object> types = new java.util.LinkedHashMap<>((Map<String, Object>) p.get("by_agent_type"));
            types.put("(all)", p.get("all"));
            for (Map.Entry<String, Object> e : types.entrySet()) {
                Map<String, Object> t = (Map<String, Object>) e.getValue();
                h.append("<tr><td>");
                text(h, String.valueOf(p.get("project")));
                h.append("</td><td>");
                text(h, e.getKey());
                h.append("</td><td class=\"n\">").append(t.get("starts")).append("</td><td class=\"n\">").append(t.get("stops"))
                        .append("</td><td class=\"n\">").append(t.get("reaped")).append("</td><td class=\"n\">")
                        .append(e.getKey().equals("(all)") ? (Long) open.get("live") + (Long) open.get("stale") : "")
                        .append("</td><td class=\"n\">").append(dash(t.get("duration_p50_ms"))).append("</td><td class=\"n\">")
                        .append(dash(t.get("duration_p90_ms"))).append("</td><td class=\"n\">").append(dash(t.get("duration_p99_ms")))
                        .append("</td></tr>");
                if (!e.getKey().equals("(all)") && t.get("duration_p99_ms") instanceof Long v) {
                    labels.add(e.getKey() + " p99");
                    p99.add(v);
                }
            }
        }
        h.append("</table>\n");
        hbars(h, "subagent-p99", labels, p99, "#1e88e5");
        h.append("</section>\n");
    }

    @SuppressWarnings("unchecked")
    private static void spawnGuard(StringBuilder h, List<Object> projects) {
        h.append("<section id=\"spawn-guard\"><h2>Spawn guard: would-deny rate per candidate</h2>\n");
        for (Object o : projects) {
            Map<String, Object> g = (Map<String, Object>) o;
            h.append("<p>");
            text(h, g.get("project") + ": " + g.get("observations") + " observations");
            h.append("</p>");
            List<String> labels = new ArrayList<>();
            List<Long> permille = new ArrayList<>();
            if (g.get("candidates") instanceof Map<?, ?> candidates) {
                for (Map.Entry<?, ?> e : candidates.entrySet()) {
                    Map<String, Object> c = (Map<String, Object>) e.getValue();
                    double rate = c.get("would_deny_rate") instanceof Number n ? n.doubleValue() : 0;
                    labels.add(e.getKey() + " (depth " + c.get("max_depth") + ", concurrent " + c.get("max_concurrent")
                            + "): " + String.format("%.1f%%", 100 * rate));
                    permille.add(Math.round(rate * 1000));
                }
            }
            hbars(h, "would-deny", labels, permille, "#8e24aa");
            Map<String, Object> conc = (Map<String, Object>) g.get("concurrent_open");
            if (conc != null && conc.get("histogram") instanceof Map<?, ?> hist && !hist.isEmpty()) {
                histogram(h, (Map<String, Object>) hist, conc.get("threshold_p99_plus_1"));
            }
        }
        h.append("</section>\n");
    }

    /** The concurrency histogram, with the derived threshold (p99 + 1) marked by a line. */
    private static void histogram(StringBuilder h, Map<String, Object> hist, Object threshold) {
        long maxValue = 0;
        long maxCount = 1;
        for (Map.Entry<String, Object> e : hist.entrySet()) {
            maxValue = Math.max(maxValue, Long.parseLong(e.getKey()));
            maxCount = Math.max(maxCount, ((Number) e.getValue()).longValue());
        }
        long t = threshold instanceof Number n ? n.longValue() : -1;
        long columns = Math.max(maxValue, t) + 1;
        int height = 160;
        double slot = (double) (WIDTH - 40) / columns;
        h.append("<p>Concurrent subagents open at each spawn (histogram); the line marks the derived p99+1 = ")
                .append(t < 0 ? "-" : String.valueOf(t)).append("</p>");
        h.append("<svg data-chart=\"concurrency\" width=\"").append(WIDTH).append("\" height=\"").append(height + 30)
                .append("\" role=\"img\">");
        for (Map.Entry<String, Object> e : hist.entrySet()) {
            long v = Long.parseLong(e.getKey());
            long n = ((Number) e.getValue()).longValue();
            double bh = (double) n * height / maxCount;
            h.append("<rect class=\"bar\" data-value=\"").append(v).append("\" data-count=\"").append(n).append("\" x=\"")
                    .append(fmt(40 + v * slot)).append("\" y=\"").append(fmt(height - bh)).append("\" width=\"")
                    .append(fmt(Math.max(1, slot - 2))).append("\" height=\"").append(fmt(bh)).append("\" fill=\"#8e24aa\"/>");
        }
        for (long v = 0; v < columns; v++) {
            h.append("<text x=\"").append(fmt(40 + v * slot)).append("\" y=\"").append(height + 14).append("\">").append(v)
                    .append("</text>");
        }
        if (t >= 0) {
            double x = 40 + t * slot;
            h.append("<line class=\"p99-plus-1\" data-value=\"").append(t).append("\" x1=\"").append(fmt(x)).append("\" x2=\"")
                    .append(fmt(x)).append("\" y1=\"0\" y2=\"").append(height).append("\" stroke=\"#000\" stroke-dasharray=\"4 2\"/>")
                    .append("<text x=\"").append(fmt(x + 3)).append("\" y=\"12\">p99+1 = ").append(t).append("</text>");
        }
        h.append("</svg>\n");
    }

    private static void integrity(StringBuilder h, Map<String, Object> outcomes) {
        h.append("<section id=\"integrity\"><h2>Integrity gate outcomes (halts, from the decision log)</h2>\n");
        List<String> labels = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        for (Map.Entry<String, Object> e : outcomes.entrySet()) {
            labels.add(e.getKey());
            counts.add((Long) e.getValue());
        }
        hbars(h, "integrity", labels, counts, "#6a1b9a");
        h.append("</section>\n");
    }

    @SuppressWarnings("unchecked")
    private static void latency(StringBuilder h, List<Object> rows) {
        h.append("<section id=\"latency\"><h2>Hook latency per host and event (decision elapsed time)</h2>\n<table><tr>"
                + "<th>host</th><th>event</th><th>hooks</th><th>p50 ms</th><th>p90 ms</th><th>p99 ms</th><th>max ms</th></tr>");
        List<String> labels = new ArrayList<>();
        List<Long> p99 = new ArrayList<>();
        for (Object o : rows) {
            Map<String, Object> l = (Map<String, Object>) o;
            h.append("<tr><td>");
            text(h, String.valueOf(l.get("host")));
            h.append("</td><td>");
            text(h, String.valueOf(l.get("event")));
            h.append("</td><td class=\"n\">").append(l.get("n")).append("</td>");
            for (String k : List.of("p50_us", "p90_us", "p99_us", "max_us")) {
                h.append("<td class=\"n\">").append(ReportText.ms(l.get(k))).append("</td>");
            }
            h.append("</tr>");
            labels.add(l.get("host") + " " + l.get("event") + " p99 µs");
            p99.add(l.get("p99_us") instanceof Long v ? v : 0L);
        }
        h.append("</table>\n");
        hbars(h, "latency-p99", labels, p99, "#00897b");
        h.append("</section>\n");
    }

    /**
     * Inventory drift per turn: a table of every turn row, and a stacked bar per turn index of its
     * turns by drift status (each segment with {@code data-status} and {@code data-count}).
     */
    @SuppressWarnings("unchecked")
    private static void inventoryDrift(StringBuilder h, Map<String, Object> drift) {
        Map<String, Object> total = (Map<String, Object>) drift.get("total");
        h.append("<section id=\"inventory-drift\"><h2>Inventory drift per turn (turn inventory records)</h2>\n<p>Recorded inventory drift per turn: ")
                .append(total.get("turns")).append(" turn(s) in ").append(drift.get("sessions"))
                .append(" session(s); unclassified: recorded without a preregistration; changed: another inventory than"
                        + " the session's record before</p>\n");
        List<Object> rows = (List<Object>) drift.get("per_turn");
        if (rows.isEmpty()) {
            h.append("<p class=\"empty\" data-chart-empty=\"inventory-drift\">(none)</p>\n</section>\n");
            return;
        }
        String[] colors = {"#4caf50", "#29b6f6", "#e53935", "#ffb300", "#9e9e9e"};
        long max = 1;
        for (Object o : rows) {
            max = Math.max(max, (Long) ((Map<String, Object>) o).get("turns"));
        }
        int row = 18;
        int labelWidth = 120;
        h.append("<div class=\"legend\">");
        for (int i = 0; i < InventoryDrift.STATUSES.size(); i++) {
            h.append("<span style=\"color:").append(colors[i]).append("\">&#9632; ")
                    .append(InventoryDrift.STATUSES.get(i)).append("</span>");
        }
        h.append("</div>\n<svg data-chart=\"inventory-drift\" width=\"").append(WIDTH).append("\" height=\"")
                .append(row * rows.size() + 4).append("\" role=\"img\">");
        for (int r = 0; r < rows.size(); r++) {
            Map<String, Object> m = (Map<String, Object>) rows.get(r);
            int y = r * row + 2;
            h.append("<text x=\"0\" y=\"").append(y + 12).append("\">turn ");
            text(h, String.valueOf(m.get("turn")));
            h.append("</text>");
            double x = labelWidth;
            for (int i = 0; i < InventoryDrift.STATUSES.size(); i++) {
                long n = (Long) m.get(InventoryDrift.STATUSES.get(i));
                if (n == 0) {
                    continue;
                }
                double w = (double) n * (WIDTH - labelWidth - 60) / max;
                h.append("<rect class=\"bar\" data-turn=\"");
                attr(h, String.valueOf(m.get("turn")));
                h.append("\" data-status=\"").append(InventoryDrift.STATUSES.get(i)).append("\" data-count=\"").append(n)
                        .append("\" x=\"").append(fmt(x)).append("\" y=\"").append(y).append("\" width=\"")
                        .append(fmt(Math.max(1, w))).append("\" height=\"").append(row - 4).append("\" fill=\"")
                        .append(colors[i]).append("\"/>");
                x += Math.max(1, w);
            }
        }
        h.append("</svg>\n<table><tr><th>turn</th><th>turns</th>");
        for (String s : InventoryDrift.STATUSES) {
            h.append("<th>").append(s).append("</th>");
        }
        h.append("<th>incomplete</th><th>changed</th></tr>");
        List<Object> all = new ArrayList<>(rows);
        Map<String, Object> totalRow = new java.util.LinkedHashMap<>();
        totalRow.put("turn", "(all)");
        totalRow.putAll(total);
        all.add(totalRow);
        for (Object o : all) {
            Map<String, Object> m = (Map<String, Object>) o;
            h.append("<tr><td>");
            text(h, String.valueOf(m.get("turn")));
            h.append("</td><td class=\"n\">").append(m.get("turns")).append("</td>");
            for (String s : InventoryDrift.STATUSES) {
                h.append("<td class=\"n\">").append(m.get(s)).append("</td>");
            }
            h.append("<td class=\"n\">").append(m.get("incomplete")).append("</td><td class=\"n\">")
                    .append(m.get("changed")).append("</td></tr>");
        }
        h.append("</table>\n</section>\n");
    }

    /** A horizontal bar chart: one labelled bar per value, each with {@code data-count}. */
    private static void hbars(StringBuilder h, String name, List<String> labels, List<Long> values, String color) {
        if (labels.isEmpty()) {
            h.append("<p class=\"empty\" data-chart-empty=\"").append(name).append("\">(none)</p>\n");
            return;
        }
        long max = 1;
        for (long v : values) {
            max = Math.max(max, v);
        }
        int row = 18;
        int labelWidth = 420;
        h.append("<svg data-chart=\"").append(name).append("\" width=\"").append(WIDTH).append("\" height=\"")
                .append(row * labels.size() + 4).append("\" role=\"img\">");
        for (int i = 0; i < labels.size(); i++) {
            long v = values.get(i);
            double w = (double) v * (WIDTH - labelWidth - 60) / max;
            int y = i * row + 2;
            h.append("<text x=\"0\" y=\"").append(y + 12).append("\">");
            text(h, labels.get(i));
            h.append("</text><rect class=\"bar\" data-label=\"");
            attr(h, labels.get(i));
            h.append("\" data-count=\"").append(v).append("\" x=\"").append(labelWidth).append("\" y=\"").append(y)
                    .append("\" width=\"").append(fmt(Math.max(1, w))).append("\" height=\"").append(row - 4)
                    .append("\" fill=\"").append(color).append("\"/><text x=\"").append(fmt(labelWidth + Math.max(1, w) + 4))
                    .append("\" y=\"").append(y + 12).append("\">").append(v).append("</text>");
        }
        h.append("</svg>\n");
    }

    private static String dash(Object o) {
        return o == null ? "-" : o.toString();
    }

    private static String fmt(double d) {
        return String.format(java.util.Locale.ROOT, "%.1f", d);
    }

    /** Appends {@code s} escaped for HTML text. */
    static void text(StringBuilder h, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> h.append("&lt;");
                case '>' -> h.append("&gt;");
                case '&' -> h.append("&amp;");
                case '"' -> h.append("&quot;");
                case '\'' -> h.append("&#39;");
                default -> h.append(c < ' ' ? ' ' : c);
            }
        }
    }

    private static void attr(StringBuilder h, String s) {
        text(h, s);
    }
}
