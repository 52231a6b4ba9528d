package dev.agentwarden.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.FieldScanner;
import dev.agentwarden.ledger.LedgerLine.Event;
import dev.agentwarden.ledger.LedgerLine.Key;
import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ledger line codec: what writers put under a {@link Key} comes back under it, and a
 * {@link LedgerLine.View} reads every line (Warden's own and odd ones) as a parse of the line does.
 */
class LedgerLineCodecTest {
    @TempDir
    Path tmp;

    @Test
    void builderLine_appendedAndReadInPlace_returnsEveryFieldAsWritten() throws IOException {
        LedgerStore store = new LedgerStore(LedgerPaths.forRoot(tmp.toString()), MutableClock.at("2026-05-04T10:00:00Z"));
        Map<String, Object> written = store.append(LedgerLine.of(Event.SUBAGENT_STOP)
                .put(Key.REF, "0123456789ab")
                .put(Key.SESSION_ID, "séance \"quoted\"\n")
                .put(Key.AGENT_TYPE, null)
                .put(Key.DEPTH, 3L)
                .put(Key.DURATION_MS, -17L)
                .put(Key.STOP_LOSS_ARMS_EXCEEDED, List.of("5m", "15m"))
                .put(Key.START_SEEN, false)
                .put(Key.UNIDENTIFIED, true)
                .put(Key.CANDIDATES, List.of(Map.of("label", "tight", "would_deny", true, "max_depth", 2L)))
                .fields());
        List<LedgerLine.View> read = new ArrayList<>();
        List<Object[]> seen = new ArrayList<>();
        LedgerReader.scan(store.paths(), dev.agentwarden.io.ReadProgress.NONE, new LedgerReader.LineVisitor() {
            @Override
            public void entry(String segment, long number, LedgerLine.View line, byte[] bytes, int from, int to) {
                List<LedgerLine.View> candidates = line.objects(Key.CANDIDATES);
                seen.add(new Object[] {line.is(Event.SUBAGENT_STOP), line.string(Key.REF), line.string(Key.SESSION_ID),
                        line.has(Key.AGENT_TYPE), line.value(Key.AGENT_TYPE), line.integer(Key.DEPTH),
                        line.integer(Key.DURATION_MS), line.strings(Key.STOP_LOSS_ARMS_EXCEEDED),
                        line.isFalse(Key.START_SEEN), line.isTrue(Key.UNIDENTIFIED), candidates.size(),
                        candidates.get(0).string(Key.LABEL), candidates.get(0).isTrue(Key.WOULD_DENY),
                        candidates.get(0).value(Key.MAX_DEPTH), line.string(Key.TS), line.integer(Key.V),
                        line.has(Key.PARENT_REF)});
                read.add(line);
            }
        });

        assertThat(seen).hasSize(1);
        assertThat(seen.get(0)).containsExactly(true, "0123456789ab", "séance \"quoted\"\n", true, null, 3L, -17L,
                List.of("5m", "15m"), true, true, 1, "tight", true, 2L, "2026-05-04T10:00:00.000Z", 1L, false);
        assertThat(written).containsEntry(Key.EVENT.wire(), "subagent_stop");
    }

    @Test
    void wardenWrittenLine_isReadInPlace_withoutParsing() {
        byte[] line = ("{\"v\":1,\"event\":\"subagent_start\",\"ts\":\"2026-06-01T00:00:14.515Z\",\"ref\":\"6ff3b3bd11c4\","
                + "\"session_id\":\"sess-000000\",\"agent_type\":\"code-reviewer\",\"parent_ref\":null,\"depth\":1,"
                + "\"candidates\":[{\"label\":\"tight\",\"max_depth\":2,\"on\":[]}],\"prev\":\"" + LedgerLine.GENESIS + "\"}")
                .getBytes(StandardCharsets.UTF_8);
        String[] keys = new String[Key.values().length];
        for (Key k : Key.values()) {
            keys[k.ordinal()] = k.wire();
        }

        assertThat(new FieldScanner(keys, 32, true).scan(line, 0, line.length)).isTrue();
    }

    /** Every line of the bulk fixtures and a set of odd ones: the view and a parse agree on everything. */
    @Test
    void view_onWardenAndOddLines_readsEveryKeyAsAParseDoes() throws IOException {
        List<byte[]> lines = new ArrayList<>();
        for (String f : List.of("clean/2026-06.jsonl", "odd/2026-08.jsonl")) {
            try (InputStream in = LedgerLineCodecTest.class.getResourceAsStream("/ledger/bulk/" + f)) {
                byte[] all = in.readAllBytes();
                int from = 0;
                for (int i = 0; i < all.length; i++) {
                    if (all[i] == '\n') {
                        lines.add(Arrays.copyOfRange(all, from, i));
                        from = i + 1;
                    }
                }
            }
        }
        for (String odd : List.of("{\"v\":1,\"v\":1}", "{\"v\":01}", "{\"v\":-}", "{\"v\":1.}", "{\"v\":1e}", "{\"v\":tru}",
                "{\"v\":1,}", "{,}", "{\"v\" 1}", "{\"v\":[1,]}", "{\"v\":\"\\x\"}", "{\"v\":\"a\tb\"}",
                "{\"v\":123456789012345678}", "{\"v\":1234567890123456789}", "{\"v\":-9223372036854775808}",
                "{\"v\":99999999999999999999}", "{\"v\":1E400}", "{\"prev\":\"\\u0030\"}", "{\"ev\\u0065nt\":\"ledger_gap\"}",
                "{\"event\":\"ledger_gap\"}  ", "{\"a\":{\"b\":1,\"b\":2}}", "{\"a\":[{\"x\":1},{\"x\":1}]}",
                "{\"a\":" + "[".repeat(31) + "]".repeat(31) + "}", "{\"a\":" + "[".repeat(32) + "]".repeat(32) + "}",
                "{\"ref\":\"\\ud83d\\ude00\"}", "{\"ref\":\"\\udc00\"}", "{}", "{ }", "{\"candidates\":[1,{\"label\":\"x\"},[]]}")) {
            lines.add(odd.getBytes(StandardCharsets.UTF_8));
        }
        lines.add(new byte[] {'{', '"', 'r', 'e', 'f', '"', ':', '"', (byte) 0xc3, (byte) 0xa9, '"', '}'});
        lines.add(new byte[] {'{', '"', 'r', 'e', 'f', '"', ':', '"', (byte) 0xff, '"', '}'});

        LedgerLine.View view = new LedgerLine.View();
        for (byte[] line : lines) {
            String text = new String(line, StandardCharsets.UTF_8);
            Map<String, Object> parsed = line.length > 0 && line[0] == '{' ? LedgerLine.parse(line) : null;
            boolean accepted = line.length > 0 && line[0] == '{' && view.read(line, 0, line.length);
            assertThat(accepted).as(text).isEqualTo(parsed != null);
            if (parsed == null) {
                continue;
            }
            for (Key k : Key.values()) {
                Object expected = parsed.get(k.wire());
                assertThat(view.has(k)).as(text + " has " + k).isEqualTo(parsed.containsKey(k.wire()));
                assertThat(view.value(k)).as(text + " " + k).isEqualTo(expected);
                assertThat(view.string(k)).as(text + " " + k).isEqualTo(expected instanceof String s ? s : null);
                assertThat(view.integer(k)).as(text + " " + k).isEqualTo(expected instanceof Long n ? n : null);
                assertThat(view.isTrue(k)).as(text + " " + k).isEqualTo(Boolean.TRUE.equals(expected));
                assertThat(view.isFalse(k)).as(text + " " + k).isEqualTo(Boolean.FALSE.equals(expected));
            }
            for (Event e : Event.values()) {
                assertThat(view.is(e)).as(text + " " + e).isEqualTo(e.wire().equals(parsed.get("event")));
            }
            List<Object> candidates = new ArrayList<>();
            for (LedgerLine.View c : view.objects(Key.CANDIDATES)) {
                candidates.add(Arrays.asList(c.string(Key.LABEL), c.isTrue(Key.WOULD_DENY), c.value(Key.MAX_DEPTH),
                        c.value(Key.MAX_CONCURRENT)));
            }
            List<Object> expectedCandidates = new ArrayList<>();
            if (parsed.get("candidates") instanceof List<?> list) {
                for (Object o : list) {
                    if (o instanceof Map<?, ?> m) {
                        expectedCandidates.add(Arrays.asList(m.get("label") instanceof String s ? s : null,
                                Boolean.TRUE.equals(m.get("would_deny")), m.get("max_depth"), m.get("max_concurrent")));
                    }
                }
            }
            assertThat(candidates).as(text).isEqualTo(expectedCandidates);
        }
    }
}
