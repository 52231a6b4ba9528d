package dev.agentwarden.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A line the scanner accepts is one the parser accepts, with the same value under every recorded
 * key: checked on Warden-shaped lines mutated at random (bytes replaced, inserted, deleted, keys
 * repeated, escapes and UTF-8 put in), strict and lenient.
 */
class FieldScannerTest {
    private static final String[] KEYS = {"v", "event", "ts", "session_id", "agent_type", "duration_ms", "candidates",
        "stop_loss_arms_exceeded", "start_seen", "prev"};
    private static final String[] EXPECTED = {"label", "max_depth", "would_deny", "on", "depth"};
    private static final String LINE = "{\"v\":1,\"event\":\"subagent_stop\",\"ts\":\"2026-06-01T00:00:29.030Z\","
            + "\"session_id\":\"sess-000000\",\"agent_type\":\"code-reviewer\",\"depth\":1,\"duration_ms\":240579,"
            + "\"stop_loss_arms_exceeded\":[\"5m\"],\"start_seen\":true,\"candidates\":[{\"label\":\"tight\",\"max_depth\":2,"
            + "\"would_deny\":false,\"on\":[]}],\"prev\":\"aaa70665377ec7fde84c829cfda2e57bd379f0f20b410df302e10537310b66d8\"}";
    private static final String[] PIECES = {"\"", "\\", "\\u00e9", "\\ud800", "\\n", "é", "\u0001", ",", ":", "{", "}",
        "[", "]", " ", "1e400", "-", ".5", "\"v\":2,", "\"event\":\"x\",", "\"label\":\"x\",", "\"ev\\u0065nt\":1,", "null",
        "true", "\"depth\":3,", "9999999999999999999"};

    @Test
    void nextElement_walksAnArraysElements_pastCommasAndWhiteSpace() {
        byte[] b = "[ \"a\" ,\t{\"k\":[1, 2]}\r\n,3 ]".getBytes(StandardCharsets.US_ASCII);
        int end = b.length - 1;
        StringBuilder seen = new StringBuilder();
        int p = 1;
        while ((p = FieldScanner.nextElement(b, p, end)) < end) {
            int to = FieldScanner.valueEnd(b, p, end);
            seen.append(new String(b, p, to - p, StandardCharsets.US_ASCII)).append('|');
            p = to;
        }
        assertThat(seen).hasToString("\"a\"|{\"k\":[1, 2]}|3|");
        assertThat(p).isEqualTo(end);
    }

    @Test
    void nextElement_emptyOrBlankArray_isItsEnd() {
        byte[] empty = "[]".getBytes(StandardCharsets.US_ASCII);
        byte[] blank = "[ \n ]".getBytes(StandardCharsets.US_ASCII);
        assertThat(FieldScanner.nextElement(empty, 1, 1)).isEqualTo(1);
        assertThat(FieldScanner.nextElement(blank, 1, 4)).isEqualTo(4);
    }

    @Test
    void scan_onMutatedWardenLines_acceptsOnlyWhatTheParserReadsTheSame() {
        Random random = new Random(11);
        int accepted = 0;
        for (boolean strict : new boolean[] {true, false}) {
            JsonLimits limits = strict ? new JsonLimits(32, 64 * 1024, true, true, true) : JsonLimits.LENIENT;
            FieldScanner scanner = new FieldScanner(KEYS, EXPECTED, limits.maxDepth(), strict);
            for (int round = 0; round < 20_000; round++) {
                byte[] line = mutate(LINE.getBytes(StandardCharsets.UTF_8), random);
                byte[] padded = Arrays.copyOf(line, line.length + random.nextInt(3));
                if (!scanner.scan(padded, 0, line.length)) {
                    continue;
                }
                accepted++;
                Object parsed = Json.parse(new String(line, StandardCharsets.UTF_8), limits);
                assertThat(parsed).as(new String(line, StandardCharsets.UTF_8)).isInstanceOf(Map.class);
                Map<?, ?> fields = (Map<?, ?>) parsed;
                for (int k = 0; k < KEYS.length; k++) {
                    assertThat(scanner.kind(k) != FieldScanner.ABSENT).as(KEYS[k] + " in " + new String(line,
                            StandardCharsets.UTF_8)).isEqualTo(fields.containsKey(KEYS[k]));
                    assertThat(scanner.value(k)).as(KEYS[k]).isEqualTo(fields.get(KEYS[k]));
                    assertThat(scanner.sharedString(k)).isEqualTo(fields.get(KEYS[k]) instanceof String s ? s : null);
                }
            }
        }
        assertThat(accepted).as("mutated lines the scanner accepted").isGreaterThan(1000);
    }

    @Test
    void scanLine_onMutatedTextWithNewlines_isScanOfTheLineUpToItsFirstNewline() {
        Random random = new Random(31);
        String[] tails = {"\n", " \n", "\t\r\n", "\n" + LINE + "\n", "", " ", "\r", "x\n", "}\n", "\n\n"};
        int accepted = 0;
        int refused = 0;
        for (boolean strict : new boolean[] {true, false}) {
            FieldScanner byLine = new FieldScanner(KEYS, EXPECTED, 32, strict);
            FieldScanner bySpan = new FieldScanner(KEYS, EXPECTED, 32, strict);
            for (int round = 0; round < 20_000; round++) {
                byte[] line = mutate(LINE.getBytes(StandardCharsets.UTF_8), random);
                if (random.nextInt(4) == 0) {
                    line = splice(line, random.nextInt(line.length + 1), 0, new byte[] {'\n'});
                }
                byte[] text = splice(line, line.length, 0, tails[random.nextInt(tails.length)]
                        .getBytes(StandardCharsets.UTF_8));
                int newline = indexOf(text, (byte) '\n');
                int end = byLine.scanLine(text, 0, text.length);
                boolean spanAccepted = newline >= 0 && text[0] == '{' && bySpan.scan(text, 0, newline);
                String shown = new String(text, StandardCharsets.UTF_8);
                assertThat(end).as(shown).isEqualTo(spanAccepted ? newline : -1);
                if (end < 0) {
                    refused++;
                    continue;
                }
                accepted++;
                for (int k = 0; k < KEYS.length; k++) {
                    assertThat(byLine.kind(k)).as(KEYS[k] + " in " + shown).isEqualTo(bySpan.kind(k));
                    assertThat(byLine.value(k)).as(KEYS[k] + " in " + shown).isEqualTo(bySpan.value(k));
                }
            }
        }
        assertThat(accepted).as("lines read with their end found in the scan").isGreaterThan(1000);
        assertThat(refused).as("texts left to the usual way").isGreaterThan(1000);
    }

    @Test
    void scanLine_anObjectBrokenAcrossTwoLines_isNotReadAsOne() {
        FieldScanner scanner = new FieldScanner(new String[] {"v", "event"}, 32, true);
        byte[] broken = "{\"v\":1,\n\"event\":\"x\"}\n".getBytes(StandardCharsets.US_ASCII);
        assertThat(scanner.scan(broken, 0, broken.length - 1)).as("scan of both lines: the newline is white space")
                .isTrue();
        assertThat(scanner.scanLine(broken, 0, broken.length)).isEqualTo(-1);
        byte[] unended = "{\"v\":1}".getBytes(StandardCharsets.US_ASCII);
        assertThat(scanner.scanLine(unended, 0, unended.length)).as("no newline yet").isEqualTo(-1);
        byte[] two = "{\"v\":1} \n{\"v\":2}\n".getBytes(StandardCharsets.US_ASCII);
        assertThat(scanner.scanLine(two, 0, two.length)).isEqualTo(8);
        assertThat(scanner.integer(0)).isEqualTo(1);
        assertThat(scanner.scanLine(two, 9, two.length)).isEqualTo(two.length - 1);
        assertThat(scanner.integer(0)).isEqualTo(2);
    }

    private static int indexOf(byte[] b, byte value) {
        for (int i = 0; i < b.length; i++) {
            if (b[i] == value) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void scan_predictedKey_isTakenOnlyWhenTheWholeKeyAndItsQuoteAreThere() {
        FieldScanner scanner = new FieldScanner(new String[] {"name", "outcome"}, 32, false);
        assertThat(scan(scanner, "{\"name\":\"a\",\"outcome\":\"b\"}")).isTrue();
        assertThat(scanner.string(1)).isEqualTo("b");
        assertThat(scan(scanner, "{\"name\":\"a\",\"outcomes\":\"b\"}")).isTrue();
        assertThat(scanner.kind(1)).isEqualTo(FieldScanner.ABSENT);
        assertThat(scan(scanner, "{\"name\":\"a\",\"outcom\":\"b\"}")).isTrue();
        assertThat(scanner.kind(1)).isEqualTo(FieldScanner.ABSENT);
        assertThat(scan(scanner, "{\"name\":\"a\",\"outco\\u006de\":\"b\"}")).as("an escaped key: the parser decides")
                .isFalse();
        byte[] cut = "{\"name\":\"a\",\"outcome\":\"b\"}".getBytes(StandardCharsets.US_ASCII);
        int afterKey = "{\"name\":\"a\",\"outcome".length();
        assertThat(scanner.scan(cut, 0, afterKey)).as("the key's closing quote lies past the line's end").isFalse();
        assertThat(scan(scanner, "{\"name\":\"c\",\"outcome\":\"b\"}")).isTrue();
        assertThat(scanner.sharedString(0)).isEqualTo("c");
        assertThat(scan(scanner, "{\"name\":\"d\",\"outcome\":\"b\"}")).isTrue();
        assertThat(scanner.sharedString(0)).as("a value of the same length as the last one").isEqualTo("d");
    }

    private static boolean scan(FieldScanner scanner, String line) {
        byte[] b = line.getBytes(StandardCharsets.US_ASCII);
        return scanner.scan(b, 0, b.length);
    }

    private static byte[] mutate(byte[] line, Random random) {
        byte[] b = line;
        for (int n = random.nextInt(3); n >= 0; n--) {
            int at = random.nextInt(b.length + 1);
            byte[] piece = PIECES[random.nextInt(PIECES.length)].getBytes(StandardCharsets.UTF_8);
            switch (random.nextInt(4)) {
                case 0 -> b = splice(b, at, 0, piece);
                case 1 -> b = splice(b, at, Math.min(b.length - at, 1 + random.nextInt(3)), new byte[0]);
                case 2 -> b = splice(b, at, Math.min(b.length - at, 1), piece);
                default -> {
                    // Leaves the line as it is now and then: the unmutated form must be read too.
                }
            }
        }
        return b;
    }

    private static byte[] splice(byte[] b, int at, int remove, byte[] insert) {
        byte[] out = new byte[b.length - remove + insert.length];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(insert, 0, out, at, insert.length);
        System.arraycopy(b, at + remove, out, at + insert.length, b.length - at - remove);
        return out;
    }
}
