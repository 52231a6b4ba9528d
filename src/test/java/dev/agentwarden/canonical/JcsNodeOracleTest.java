package dev.agentwarden.canonical;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compares {@link Jcs} with an independent implementation: node's {@code JSON.parse}, key sort and
 * {@code JSON.stringify}, which implement ECMAScript string and number serialization
 * (src/test/resources/jcs/oracle.js). Inputs are seeded and generated here: at least 10,000
 * documents written with varied whitespace, escapes and number notations, and 100,000 doubles from
 * random bit patterns and edge cases. Skipped, with a message, only where node is not installed.
 *
 * <p>Seed and sizes can be changed with {@code -Djcs.oracle.seed=N -Djcs.oracle.documents=N
 * -Djcs.oracle.doubles=N}.
 */
class JcsNodeOracleTest {
    private static final long SEED = Long.getLong("jcs.oracle.seed", 0x8785_5EEDL);
    private static final int DOCUMENTS = Math.max(10_000, Integer.getInteger("jcs.oracle.documents", 10_000));
    private static final int DOUBLES = Integer.getInteger("jcs.oracle.doubles", 100_000);

    private static String node;

    @BeforeAll
    static void findNode() {
        node = nodeCommand();
        if (node == null) {
            System.err.println("JcsNodeOracleTest SKIPPED: node is not on PATH, so the RFC 8785 node oracle did not run");
        }
        Assumptions.assumeTrue(node != null, "node is not on PATH: RFC 8785 node oracle skipped");
    }

    @Test
    void canonicalize_generatedDocuments_matchNode(@TempDir Path tmp) throws Exception {
        Random random = new Random(SEED);
        List<String> documents = new ArrayList<>(DOCUMENTS);
        for (int i = 0; i < DOCUMENTS; i++) {
            StringBuilder text = new StringBuilder();
            new DocumentWriter(random, text).document();
            documents.add(text.toString());
        }

        List<String> expected = runOracle("documents", documents, tmp);

        assertThat(expected).hasSize(DOCUMENTS);
        List<String> mismatches = new ArrayList<>();
        int numbersSeen = 0;
        for (int i = 0; i < DOCUMENTS; i++) {
            String actual = new String(Jcs.canonicalize(documents.get(i).getBytes(StandardCharsets.UTF_8)),
                    StandardCharsets.UTF_8);
            numbersSeen += countNumbers(actual);
            if (!actual.equals(expected.get(i)) && mismatches.size() < 5) {
                mismatches.add("document " + i + " (seed " + SEED + ")\n  input: " + documents.get(i)
                        + "\n  node:  " + expected.get(i) + "\n  warden: " + actual);
            }
        }
        assertThat(mismatches).as("documents where Jcs and node disagree").isEmpty();
        assertThat(numbersSeen).as("numbers in the generated documents").isGreaterThan(2 * DOCUMENTS);
    }

    @Test
    void numberToString_randomAndEdgeDoubles_matchNode(@TempDir Path tmp) throws Exception {
        Random random = new Random(SEED + 1);
        List<Double> values = new ArrayList<>(DOUBLES);
        double[] edges = {Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, 1e21, 1e-7, 1e-6, 9007199254740992.0,
            9007199254740993.0, 2e23, 0.1, 5e-324, 1.7976931348623157e308, 4.35, 0.3, 100, 1e22, 123456789012345680.0};
        for (double edge : edges) {
            for (double d : new double[] {edge, -edge, Math.nextUp(edge), Math.nextDown(edge)}) {
                if (!Double.isInfinite(d)) {
                    values.add(d);
                }
            }
        }
        for (int exponent = -1074; exponent <= 1023; exponent++) {
            values.add(Math.scalb(1.0, exponent));
        }
        for (int power = -325; power <= 308; power++) {
            values.add(Double.parseDouble("1e" + power));
        }
        while (values.size() < DOUBLES) {
            double d = switch (values.size() % 4) {
                case 0 -> Double.longBitsToDouble(random.nextLong());
                case 1 -> random.nextInt(10_000_000) / Math.pow(10, random.nextInt(15));
                case 2 -> random.nextDouble() * Math.pow(10, random.nextInt(60) - 30);
                default -> Double.longBitsToDouble(random.nextLong() & 0x000f_ffff_ffff_ffffL);
            };
            if (!Double.isNaN(d) && !Double.isInfinite(d)) {
                values.add(d);
            }
        }
        List<String> hex = new ArrayList<>(values.size());
        for (double d : values) {
            hex.add(Long.toHexString(Double.doubleToRawLongBits(d)));
        }

        List<String> expected = runOracle("doubles", hex, tmp);

        assertThat(expected).hasSize(values.size());
        List<String> mismatches = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            String actual = EcmaNumbers.toString(values.get(i));
            if (!actual.equals(expected.get(i)) && mismatches.size() < 5) {
                mismatches.add("bits " + hex.get(i) + ": node " + expected.get(i) + ", warden " + actual);
            }
        }
        assertThat(mismatches).as("doubles where EcmaNumbers and node disagree").isEmpty();
    }

    private static List<String> runOracle(String mode, List<String> lines, Path tmp) throws Exception {
        Path script = Path.of(JcsNodeOracleTest.class.getResource("/jcs/oracle.js").toURI());
        Path stderr = tmp.resolve("node.err");
        Process process = new ProcessBuilder(node, script.toString(), mode).redirectError(stderr.toFile()).start();
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try (OutputStream in = process.getOutputStream()) {
                for (String line : lines) {
                    in.write(line.getBytes(StandardCharsets.UTF_8));
                    in.write('\n');
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        byte[] output;
        try (InputStream out = process.getInputStream()) {
            output = out.readAllBytes();
        }
        writer.get(2, TimeUnit.MINUTES);
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as("node oracle exit; stderr: %s", Files.readString(stderr)).isZero();
        String text = new String(output, StandardCharsets.UTF_8);
        List<String> result = new ArrayList<>(List.of(text.split("\n", -1)));
        if (!result.isEmpty() && result.get(result.size() - 1).isEmpty()) {
            result.remove(result.size() - 1);
        }
        return result;
    }

    private static int countNumbers(String canonical) {
        int count = 0;
        boolean inString = false;
        for (int i = 0; i < canonical.length(); i++) {
            char c = canonical.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if ((c == '-' || (c >= '0' && c <= '9')) && (i == 0 || "[,:".indexOf(canonical.charAt(i - 1)) >= 0)) {
                count++;
            }
        }
        return count;
    }

    private static String nodeCommand() {
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0 ? "node" : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * Writes one random JSON text on one line: whitespace from space, tab and CR between tokens;
     * strings mixing raw characters, short escapes and {@code \\u} escapes (either hex case),
     * including controls, U+2028, non-characters and surrogate pairs; numbers as integers of every
     * size, exact decimal expansions, JDK {@code Double.toString} forms and hand-made notations.
     */
    static final class DocumentWriter {
        private static final String SPACE = " \t\r";
        private final Random random;
        private final StringBuilder out;

        DocumentWriter(Random random, StringBuilder out) {
            this.random = random;
            this.out = out;
        }

        /** A document: an object or array at the top, any value below (depth-bounded). */
        void document() {
            space();
            if (random.nextBoolean()) {
                object(0);
            } else {
                array(0);
            }
            space();
        }

        void value(int depth) {
            space();
            int kind = random.nextInt(depth >= 4 ? 6 : 8);
            switch (kind) {
                case 0, 1 -> number();
                case 2, 3 -> string(12);
                case 4 -> out.append(random.nextBoolean() ? "true" : "false");
                case 5 -> out.append("null");
                case 6 -> array(depth);
                default -> object(depth);
            }
            space();
        }

        private void object(int depth) {
            out.append('{');
            int members = random.nextInt(7);
            Set<String> used = new HashSet<>();
            boolean first = true;
            for (int i = 0; i < members; i++) {
                StringBuilder keyText = new StringBuilder();
                String key = new DocumentWriter(random, keyText).stringValue(6);
                if (!used.add(key)) {
                    continue;
                }
                if (!first) {
                    out.append(',');
                }
                first = false;
                space();
                out.append(keyText);
                space();
                out.append(':');
                value(depth + 1);
            }
            space();
            out.append('}');
        }

        private void array(int depth) {
            out.append('[');
            int items = random.nextInt(7);
            for (int i = 0; i < items; i++) {
                if (i > 0) {
                    out.append(',');
                }
                value(depth + 1);
            }
            space();
            out.append(']');
        }

        private void string(int maxLength) {
            stringValue(maxLength);
        }

        /** Appends a string literal and returns the string it denotes. */
        private String stringValue(int maxLength) {
            StringBuilder value = new StringBuilder();
            out.append('"');
            int length = random.nextInt(maxLength + 1);
            for (int i = 0; i < length; i++) {
                int cp = codePoint();
                value.appendCodePoint(cp);
                char[] units = Character.toChars(cp);
                boolean mustEscape = cp < 0x20 || cp == '"' || cp == '\\';
                int style = random.nextInt(4);
                if (!mustEscape && style < 2) {
                    out.append(units);
                } else if (style == 2 && shortEscape(cp) != null) {
                    out.append(shortEscape(cp));
                } else {
                    for (char u : units) {
                        String hex = String.format("%04x", (int) u);
                        out.append("\\u").append(random.nextBoolean() ? hex : hex.toUpperCase());
                    }
                }
            }
            out.append('"');
            return value.toString();
        }

        private int codePoint() {
            return switch (random.nextInt(10)) {
                case 0 -> random.nextInt(0x20);
                case 1 -> "\"\\/\u007f\u2028\u2029\ufeff\uffff\u00e9\u20ac".charAt(random.nextInt(10));
                case 2 -> 0x80 + random.nextInt(0x780);
                case 3 -> {
                    int cp = 0x800 + random.nextInt(0x10000 - 0x800);
                    yield Character.isSurrogate((char) cp) ? 0xfb33 : cp;
                }
                case 4 -> 0x10000 + random.nextInt(0x100000);
                case 5 -> 0xff61 + random.nextInt(0x9f);
                default -> 0x20 + random.nextInt(0x5f);
            };
        }

        private static String shortEscape(int cp) {
            return switch (cp) {
                case '"' -> "\\\"";
                case '\\' -> "\\\\";
                case '/' -> "\\/";
                case '\b' -> "\\b";
                case '\f' -> "\\f";
                case '\n' -> "\\n";
                case '\r' -> "\\r";
                case '\t' -> "\\t";
                default -> null;
            };
        }

        private void number() {
            switch (random.nextInt(7)) {
                case 0 -> out.append(random.nextInt(2001) - 1000);
                case 1 -> {
                    int digits = 1 + random.nextInt(22);
                    StringBuilder n = new StringBuilder(random.nextInt(4) == 0 ? "-" : "");
                    n.append(1 + random.nextInt(9));
                    for (int i = 1; i < digits; i++) {
                        n.append(random.nextInt(10));
                    }
                    out.append(n);
                }
                case 2 -> out.append(new BigDecimal(finiteDouble()).toString());
                case 3 -> out.append(Double.toString(finiteDouble()));
                case 4 -> {
                    out.append(random.nextBoolean() ? "" : "-").append(random.nextInt(100_000));
                    if (random.nextBoolean()) {
                        out.append('.').append(random.nextInt(1_000_000));
                    }
                    out.append(random.nextBoolean() ? 'e' : 'E').append(new String[] {"", "+", "-"}[random.nextInt(3)])
                            .append(random.nextInt(300));
                }
                case 5 -> out.append(new String[] {"-0", "0", "-0.0", "0e5", "1E+0", "0.000001", "1e-7", "1e21",
                    "100000000000000000000", "9007199254740993", "2e23", "5e-324", "1.7976931348623157e308"}
                    [random.nextInt(13)]);
                default -> out.append(random.nextBoolean() ? "-" : "").append("0.")
                        .append("0".repeat(random.nextInt(9))).append(1 + random.nextInt(999_999));
            }
        }

        private double finiteDouble() {
            while (true) {
                double d = random.nextBoolean() ? Double.longBitsToDouble(random.nextLong())
                        : random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20);
                if (!Double.isNaN(d) && !Double.isInfinite(d)) {
                    return d;
                }
            }
        }

        private void space() {
            while (random.nextInt(4) == 0) {
                out.append(SPACE.charAt(random.nextInt(SPACE.length())));
            }
        }
    }
}
