package dev.agentwarden.report;

import org.junit.jupiter.api.parallel.Isolated;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.decision.DecisionLog;
import dev.agentwarden.decision.DecisionReader;
import dev.agentwarden.guard.GuardDerivation;
import dev.agentwarden.io.ReadProgress;
import dev.agentwarden.json.Json;
import dev.agentwarden.ledger.LedgerPaths;
import dev.agentwarden.ledger.LedgerSettings;
import dev.agentwarden.ledger.LedgerStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's fused read (one pass over the ledger for both ledger views; decision lines scanned in
 * place, concerns read without a second validation) gives the same JSON as the separate reads:
 * {@link LedgerStats#compute} and {@link GuardDerivation#derive} each over the whole ledger, and
 * the decision view built from a full JSON parse of every decision line. The corpus is generated
 * (fixed seed) with the shapes that take the scanners off their fast path: escapes, non-ASCII text,
 * reordered keys, white space, non-integer numbers, torn and non-object lines; read in small
 * chunks so that parts are merged across chunk and segment boundaries.
 */
@Isolated("sets the system property warden.read.chunk.bytes, which Warden's code reads in every class")
class ReportFusedPassTest {
    @TempDir
    Path project;

    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC);
    static final String CHUNK_PROPERTY = "warden.read.chunk.bytes";
    static final String[] TYPES = {"Explore", "Plan", "general-purpose", "Ex\\u0070lore", "r\\u00e9viseur"};
    static final String[] ASKED = {"rm -rf /", "git push --force", "curl x | sh", "echo \\\"quoted\\\"\\nnext",
        "caf\u00e9 \u2603", "tab\\there"};

    @AfterEach
    void clearChunkSize() {
        System.clearProperty(CHUNK_PROPERTY);
    }

    @Test
    @SuppressWarnings("unchecked")
    void fusedReport_generatedCorpus_sameJsonAsSeparateReadsAndFullParse() throws IOException {
        generate(new Random(31), 4000, 6000);
        System.setProperty(CHUNK_PROPERTY, "8192");
        String root = project.toString();
        for (String since : new String[] {null, "2026-11-10T00:00:00.000Z"}) {
            Map<String, Object> fused = Report.read(List.of(root), since, CLOCK, ReadProgress.NONE).toJson();

            DecisionStats parsed = new DecisionStats(since);
            DecisionReader reader = new DecisionReader(root);
            reader.read(since == null ? null : since.substring(0, 7), parsed); // the report reads from since's month on
            assertThat(Json.write(fused.get("decisions")))
                    .isEqualTo(Json.write(Report.decisions(parsed, reader.unreadable())));

            LedgerPaths paths = LedgerPaths.forRoot(root);
            Map<String, Object> stats = LedgerStats.compute(paths, LedgerSettings.DEFAULTS, CLOCK).toJson();
            stats.put("project", root);
            assertThat(Json.write(((List<Object>) fused.get("subagents")).get(0))).isEqualTo(Json.write(stats));
            Map<String, Object> derived = GuardDerivation.derive(paths, since == null ? null : Instant.parse(since))
                    .toJson();
            derived.put("project", root);
            assertThat(Json.write(((List<Object>) fused.get("spawn_guard")).get(0))).isEqualTo(Json.write(derived));
        }
        Map<String, Object> all = Report.read(List.of(root), null, CLOCK, ReadProgress.NONE).toJson();
        Map<String, Object> d = (Map<String, Object>) all.get("decisions");
        // the corpus exercises what it claims to: torn lines, refusals, integrity halts, several concerns
        assertThat((Long) d.get("unreadable_lines")).isPositive();
        assertThat((List<Object>) d.get("most_refused")).isNotEmpty();
        assertThat(((Map<String, Object>) d.get("integrity")).get("HALT_CORRUPT")).isNotEqualTo(0L);
        Map<String, Object> ledger = (Map<String, Object>) ((List<Object>) all.get("subagents")).get(0);
        assertThat((Long) ledger.get("torn_lines")).isPositive();
        assertThat((Map<String, Object>) ledger.get("by_agent_type")).containsKey("r\u00e9viseur");
        assertThat((Long) ((Map<String, Object>) ((List<Object>) all.get("spawn_guard")).get(0)).get("observations"))
                .isPositive();
    }

    private void generate(Random rnd, int decisions, int ledgerLines) throws IOException {
        Path decisionDir = DecisionLog.dir(project.toString());
        Files.createDirectories(decisionDir);
        Path ledgerDir = LedgerPaths.forRoot(project.toString()).ledgerDir();
        Files.createDirectories(ledgerDir);
        for (String month : new String[] {"2026-10", "2026-11"}) {
            StringBuilder dl = new StringBuilder();
            for (int i = 0; i < decisions / 2; i++) {
                dl.append(decisionLine(rnd, month, i));
            }
            Files.writeString(decisionDir.resolve(month + ".jsonl"), dl.toString());
            StringBuilder ll = new StringBuilder();
            for (int i = 0; i < ledgerLines / 2; i++) {
                ll.append(ledgerLine(rnd, month, i));
            }
            Files.writeString(ledgerDir.resolve(month + ".jsonl"), ll.toString());
        }
    }

    private static String ts(String month, int i) {
        int minutes = i * 7;
        return String.format("%s-%02dT%02d:%02d:%02d.%03dZ", month, 1 + minutes / 1440 % 28, minutes / 60 % 24, minutes % 60,
                i % 60, i % 1000);
    }

    private static String decisionLine(Random rnd, String month, int i) {
        int shape = rnd.nextInt(40);
        if (shape == 0) {
            return "{\"v\":1,\"ts\":\"" + ts(month, i) + "\",\"host\":\"cla\n"; // torn
        }
        if (shape == 1) {
            return "[1,2]\n";
        }
        String verdict = new String[] {"allow", "allow", "warn", "block", "halt", "odd"}[rnd.nextInt(6)];
        StringBuilder concerns = new StringBuilder();
        int n = rnd.nextInt(4);
        for (int c = 0; c < n; c++) {
            String reason = rnd.nextInt(5) == 0 ? "\"integrity " + (rnd.nextBoolean() ? "HALT_CORRUPT" : "UNKNOWN_HALT")
                    + ": torn\"" : rnd.nextInt(3) == 0 ? "\"policy \\u0074ext\"" : "null";
            concerns.append(c == 0 ? "" : ",").append("{\"name\":\"c").append(rnd.nextInt(5))
                    .append("\",\"posture\":\"").append(rnd.nextBoolean() ? "shadow" : "blocking")
                    .append("\",\"outcome\":\"").append(new String[] {"allow", "block", "error", "timeout", "x"}[rnd.nextInt(5)])
                    .append("\",\"skipped\":null,\"would_block\":").append(rnd.nextBoolean())
                    .append(",\"reason\":").append(reason).append(",\"elapsed_us\":").append(rnd.nextInt(900)).append('}');
        }
        String elapsed = rnd.nextInt(10) == 0 ? "12.5" : String.valueOf(rnd.nextInt(50_000));
        String head = "{\"v\":1,\"ts\":\"" + ts(month, i) + "\",\"host\":\"" + (rnd.nextBoolean() ? "claude" : "codex") + "\",";
        String event = rnd.nextInt(8) == 0 ? "\"event\":\"pre_tool_use\","
                : "\"event\":\"pre_tool_use\",\"native_event\":\"" + (rnd.nextBoolean() ? "PreToolUse" : "UserPromptSubmit") + "\",";
        String rest = "\"session_id\":\"s" + rnd.nextInt(30) + "\",\"ref\":null,\"tool\":\"Bash\",\"asked\":\""
                + ASKED[rnd.nextInt(ASKED.length)] + "\",\"manifest\":{\"source\":\"/p/m.yaml\",\"sha256\":\"ab\"},"
                + "\"concerns\":[" + concerns + "],\"verdict\":\"" + verdict + "\",\"downgrades\":[],\"elapsed_us\":"
                + elapsed + "}";
        if (shape == 2) {
            return "{ \"verdict\" : \"block\", \"ts\" : \"" + ts(month, i) + "\" , \"asked\":\"spaced\" }\n";
        }
        if (shape == 3) {
            return head + "\"extra\":{\"deep\":[1,{\"a\":2}]}," + event + rest + "\n";
        }
        return head + event + rest + "\n";
    }

    private static String ledgerLine(Random rnd, String month, int i) {
        int shape = rnd.nextInt(50);
        String ts = ts(month, i);
        if (shape == 0) {
            return "{\"v\":1,\"event\":\"subagent_st\n";
        }
        if (shape == 1) {
            return "not json\n";
        }
        String type = TYPES[rnd.nextInt(TYPES.length)];
        String session = "s" + rnd.nextInt(20);
        Map<String, String> f = new LinkedHashMap<>();
        f.put("v", "1");
        switch (rnd.nextInt(6)) {
            case 0, 1 -> {
                f.put("event", "\"spawn_guard" + (rnd.nextInt(4) == 0 ? "" : "_shadow") + "\"");
                f.put("ts", "\"" + ts + "\"");
                f.put("session_id", "\"" + session + "\"");
                f.put("posture", rnd.nextBoolean() ? "\"shadow\"" : "\"blocking\"");
                f.put("concurrent_open", rnd.nextInt(20) == 0 ? "null" : String.valueOf(rnd.nextInt(9)));
                f.put("spawn_depth", rnd.nextBoolean() ? "null" : String.valueOf(1 + rnd.nextInt(4)));
                f.put("depth_usable_for_derivation", String.valueOf(rnd.nextBoolean()));
                f.put("acted", String.valueOf(rnd.nextInt(10) == 0));
                List<String> cands = new ArrayList<>();
                for (String[] c : new String[][] {{"tight", "2", "3"}, {"default", "3", "6"}, {"lo\\u006fse", "4", "10"}}) {
                    cands.add("{\"label\":\"" + c[0] + "\",\"max_depth\":" + c[1] + ",\"max_concurrent\":" + c[2]
                            + ",\"would_deny\":" + rnd.nextBoolean() + ",\"on\":[\"concurrent\"]}");
                }
                f.put("candidates", "[" + String.join(",", cands) + (rnd.nextInt(10) == 0 ? ",7" : "") + "]");
            }
            case 2 -> {
                f.put("event", "\"subagent_start\"");
                f.put("ts", "\"" + ts + "\"");
                f.put("ref", "\"r" + i + "\"");
                f.put("session_id", "\"" + session + "\"");
                f.put("agent_type", "\"" + type + "\"");
            }
            case 3, 4 -> {
                f.put("event", "\"subagent_stop\"");
                f.put("ts", "\"" + ts + "\"");
                f.put("ref", "\"r" + i + "\"");
                f.put("session_id", "\"" + session + "\"");
                f.put("agent_type", rnd.nextInt(10) == 0 ? "null" : "\"" + type + "\"");
                f.put("duration_ms", rnd.nextInt(15) == 0 ? "1.5e3" : String.valueOf(rnd.nextInt(4_000_000)));
                f.put("stop_loss_arms_exceeded", rnd.nextBoolean() ? "[]" : "[\"5m\",\"1\\u0035m\"]");
                f.put("start_seen", String.valueOf(rnd.nextInt(8) != 0));
                f.put("unidentified", String.valueOf(rnd.nextInt(12) == 0));
                f.put("envelope_parse", "\"" + new String[] {"ok", "ok", "ok", "no_envelope", "malformed"}[rnd.nextInt(5)] + "\"");
            }
            default -> {
                f.put("event", "\"subagent_reaped\"");
                f.put("ts", "\"" + ts + "\"");
                f.put("session_id", "\"" + session + "\"");
                f.put("agent_type", "\"" + type + "\"");
            }
        }
        f.put("prev", "\"" + "0".repeat(64) + "\"");
        List<String> keys = new ArrayList<>(f.keySet());
        if (shape == 2) {
            java.util.Collections.reverse(keys);
        }
        StringBuilder b = new StringBuilder("{");
        for (String k : keys) {
            b.append(b.length() == 1 ? "" : shape == 3 ? " , " : ",").append('"').append(k).append("\":")
                    .append(shape == 3 ? " " : "").append(f.get(k));
        }
        return b.append("}\n").toString();
    }
}
