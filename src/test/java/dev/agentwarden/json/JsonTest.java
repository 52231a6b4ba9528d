package dev.agentwarden.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Warden's JSON reader and writer: types, numbers, escapes, limits, I-JSON strictness, round trips. */
class JsonTest {

    // ---- values and types ----

    static Stream<Arguments> values() {
        return Stream.of(
                Arguments.of("true", Boolean.TRUE),
                Arguments.of("false", Boolean.FALSE),
                Arguments.of("null", null),
                Arguments.of("\"s\"", "s"),
                Arguments.of("0", 0L),
                Arguments.of("-0", 0L),
                Arguments.of("42", 42L),
                Arguments.of("-17", -17L),
                Arguments.of("123456789012345678", 123456789012345678L),
                Arguments.of("1234567890123456789", 1234567890123456789L),
                Arguments.of("9223372036854775807", Long.MAX_VALUE),
                Arguments.of("-9223372036854775808", Long.MIN_VALUE),
                Arguments.of("9223372036854775808", 9.223372036854775808E18),
                Arguments.of("1.5", 1.5),
                Arguments.of("-0.25", -0.25),
                Arguments.of("1e3", 1000.0),
                Arguments.of("1E+2", 100.0),
                Arguments.of("2.5e-3", 0.0025),
                Arguments.of("1.0", 1.0),
                Arguments.of("1e-400", 0.0),
                Arguments.of(" \t\r\n 7 \n", 7L),
                Arguments.of("[]", List.of()),
                Arguments.of("{}", Map.of()),
                Arguments.of("[1,\"a\",null,true,[],{}]", Arrays.asList(1L, "a", null, true, List.of(), Map.of())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("values")
    void parse_value_plainJavaType(String text, Object expected) {
        assertThat(Json.parse(text)).isEqualTo(expected);
    }

    @Test
    void parse_object_keepsInsertionOrder() {
        Object o = Json.parse("{\"z\":1,\"a\":2,\"m\":{\"y\":3,\"b\":4}}");

        assertThat(o).isInstanceOf(LinkedHashMap.class);
        assertThat(List.copyOf(((Map<?, ?>) o).keySet())).isEqualTo(List.of("z", "a", "m"));
        assertThat(List.copyOf(((Map<?, ?>) ((Map<?, ?>) o).get("m")).keySet())).isEqualTo(List.of("y", "b"));
    }

    /**
     * Regression: integers of 19 digits (and Long.MIN_VALUE's 20 characters) fit a long but were
     * read as doubles, so {@code warden install} rewrote such a number in a user's settings file
     * rounded (1234567890123456789 became 1234567890123456768).
     */
    @Test
    void integerOver18Digits_readAsLong_notRounded() {
        String settings = "{\"id\":1234567890123456789,\"max\":9223372036854775807,\"min\":-9223372036854775808}";

        assertThat(Json.write(Json.parse(settings))).isEqualTo(settings);
    }

    @Test
    void parse_lenientDuplicateKeys_lastWins() {
        assertThat(Json.parse("{\"a\":1,\"a\":2}")).isEqualTo(Map.of("a", 2L));
    }

    @Test
    void parseObject_notAnObject_jsonNotObject() {
        assertThatThrownBy(() -> Json.parseObject("[1]"))
                .isInstanceOfSatisfying(JsonException.class, e -> assertThat(e.code()).isEqualTo("json_not_object"));
    }

    // ---- escapes ----

    static Stream<Arguments> escapes() {
        return Stream.of(
                Arguments.of("\"\\\"\"", "\""),
                Arguments.of("\"\\\\\"", "\\"),
                Arguments.of("\"\\/\"", "/"),
                Arguments.of("\"\\b\\f\\n\\r\\t\"", "\b\f\n\r\t"),
                Arguments.of("\"\\u0041\\u00e9\\u00E9\"", "Aéé"),
                Arguments.of("\"\\ud83d\\ude00\"", "\uD83D\uDE00"),
                Arguments.of("\"😀 raw\"", "😀 raw"),
                Arguments.of("\"\\u0000\"", "\u0000"),
                Arguments.of("\"a\\nb\\u2028c\"", "a\nb\u2028c"),
                Arguments.of("\"pre\\\"mid\\\\post\"", "pre\"mid\\post"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("escapes")
    void parse_escape_decoded(String text, String expected) {
        assertThat(Json.parse(text)).isEqualTo(expected);
    }

    // ---- syntax errors carry a stable code and an offset ----

    static Stream<Arguments> syntaxErrors() {
        return Stream.of(
                Arguments.of("empty", "", "json_empty"),
                Arguments.of("blank", "  \n ", "json_empty"),
                Arguments.of("trailingText", "{} x", "json_trailing"),
                Arguments.of("twoObjects", "{}{}", "json_trailing"),
                Arguments.of("trailingComma", "[1,]", "json_syntax"),
                Arguments.of("trailingCommaObject", "{\"a\":1,}", "json_syntax"),
                Arguments.of("singleQuotes", "{'a':1}", "json_syntax"),
                Arguments.of("unquotedKey", "{a:1}", "json_syntax"),
                Arguments.of("missingColon", "{\"a\" 1}", "json_syntax"),
                Arguments.of("unterminatedString", "\"abc", "json_syntax"),
                Arguments.of("unterminatedObject", "{\"a\":1", "json_syntax"),
                Arguments.of("unterminatedArray", "[1, 2", "json_syntax"),
                Arguments.of("rawNewlineInString", "\"a\nb\"", "json_syntax"),
                Arguments.of("rawTabInString", "\"a\tb\"", "json_syntax"),
                Arguments.of("badEscape", "\"\\x\"", "json_syntax"),
                Arguments.of("shortUnicodeEscape", "\"\\u12\"", "json_syntax"),
                Arguments.of("badHexInEscape", "\"\\u12G4\"", "json_syntax"),
                Arguments.of("leadingPlus", "+1", "json_syntax"),
                Arguments.of("leadingZero", "01", "json_trailing"),
                Arguments.of("bareDot", ".5", "json_syntax"),
                Arguments.of("dotWithoutDigits", "1.", "json_syntax"),
                Arguments.of("exponentWithoutDigits", "1e", "json_syntax"),
                Arguments.of("lonelyMinus", "-", "json_syntax"),
                Arguments.of("nan", "NaN", "json_syntax"),
                Arguments.of("infinity", "Infinity", "json_syntax"),
                Arguments.of("hugeExponent", "1e400", "json_number_range"),
                Arguments.of("truncatedLiteral", "tru", "json_syntax"),
                Arguments.of("wrongLiteral", "nul", "json_syntax"),
                Arguments.of("comment", "{} // no", "json_trailing"),
                Arguments.of("byteOrderMark", "\uFEFF{}", "json_syntax"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("syntaxErrors")
    void parse_malformed_stableCode(String name, String text, String code) {
        assertThatThrownBy(() -> Json.parse(text))
                .isInstanceOfSatisfying(JsonException.class, e -> {
                    assertThat(e.code()).isEqualTo(code);
                    assertThat(e.offset()).isBetween(0, text.length());
                    assertThat(e.getMessage()).contains(code);
                });
    }

    @Test
    void parse_error_offsetPointsAtTheProblem() {
        assertThatThrownBy(() -> Json.parse("{\"a\":1,\"b\":x}"))
                .isInstanceOfSatisfying(JsonException.class, e -> assertThat(e.offset()).isEqualTo(11));
    }

    // ---- limits ----

    @Test
    void parse_atDepthLimit_ok_oneDeeper_jsonDepthLimit() {
        JsonLimits limits = new JsonLimits(10, 1000, false, false, false);

        assertThat(Json.parse("[".repeat(10) + "]".repeat(10), limits)).isInstanceOf(List.class);
        assertThatThrownBy(() -> Json.parse("[".repeat(11) + "]".repeat(11), limits))
                .isInstanceOfSatisfying(JsonException.class, e -> assertThat(e.code()).isEqualTo("json_depth_limit"));
        assertThatThrownBy(() -> Json.parse("{\"a\":".repeat(11) + "1" + "}".repeat(11), limits))
                .isInstanceOfSatisfying(JsonException.class, e -> assertThat(e.code()).isEqualTo("json_depth_limit"));
    }

    @Test
    void parse_hostileNesting_depthLimitNotStackOverflow() {
        String deep = "[".repeat(1_000_000);

        assertThatThrownBy(() -> Json.parse(deep, JsonLimits.LENIENT))
                .isInstanceOfSatisfying(JsonException.class, e -> assertThat(e.code()).isEqualTo("json_depth_limit"));
        assertThat(Json.parse("[".repeat(256) + "]".repeat(256), JsonLimits.LENIENT)).isInstanceOf(List.class);
    }

    @Test
    void parse_depthCountsOnlyOpenContainers() {
        JsonLimits limits = new JsonLimits(2, 1000, false, false, false);
        String wide = "[" + "[1],".repeat(1000) + "[2]]";

        assertThat((List<?>) Json.parse(wide, limits)).hasSize(1001);
    }

    @Test
    void parse_stringLimit_plainAndEscapedAndKeys() {
        JsonLimits limits = new JsonLimits(10, 5, false, false, false);

        assertThat(Json.parse("\"12345\"", limits)).isEqualTo("12345");
        for (String text : List.of("\"123456\"", "\"1234\\n5\"", "\"\\u0041\\u0041\\u0041\\u0041\\u0041\\u0041\"",
                "{\"keykey\":1}")) {
            assertThatThrownBy(() -> Json.parse(text, limits)).as(text)
                    .isInstanceOfSatisfying(JsonException.class, e -> assertThat(e.code()).isEqualTo("json_string_limit"));
        }
    }

    // ---- I-JSON (RFC 7493) ----

    static Stream<Arguments> iJsonRejections() {
        return Stream.of(
                Arguments.of("duplicateKey", "{\"a\":1,\"a\":1}".getBytes(StandardCharsets.UTF_8), "json_duplicate_key"),
                Arguments.of("nestedDuplicateKey", "{\"x\":{\"b\":1,\"c\":2,\"b\":3}}".getBytes(StandardCharsets.UTF_8), "json_duplicate_key"),
                Arguments.of("loneHighSurrogate", "\"\\ud800\"".getBytes(StandardCharsets.UTF_8), "json_lone_surrogate"),
                Arguments.of("loneLowSurrogate", "\"\\udc00x\"".getBytes(StandardCharsets.UTF_8), "json_lone_surrogate"),
                Arguments.of("reversedPair", "\"\\ude00\\ud83d\"".getBytes(StandardCharsets.UTF_8), "json_lone_surrogate"),
                Arguments.of("highThenText", "\"\\ud83dA\"".getBytes(StandardCharsets.UTF_8), "json_lone_surrogate"),
                Arguments.of("loneSurrogateInKey", "{\"\\ud800\":1}".getBytes(StandardCharsets.UTF_8), "json_lone_surrogate"),
                Arguments.of("invalidUtf8Byte", bytes("\"a", 0xff, "\""), "json_invalid_utf8"),
                Arguments.of("truncatedUtf8Sequence", bytes("\"", 0xc3, "\""), "json_invalid_utf8"),
                Arguments.of("overlongUtf8", bytes("\"", 0xc0, 0xaf, "\""), "json_invalid_utf8"),
                Arguments.of("utf8EncodedSurrogate", bytes("\"", 0xed, 0xa0, 0x80, "\""), "json_invalid_utf8"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("iJsonRejections")
    void parse_iJson_rejects(String name, byte[] input, String code) {
        assertThatThrownBy(() -> Json.parse(input, JsonLimits.I_JSON))
                .isInstanceOfSatisfying(JsonException.class, e -> assertThat(e.code()).isEqualTo(code));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("iJsonRejections")
    void parse_lenient_acceptsWhatIJsonRejects(String name, byte[] input, String code) {
        assertThat(Json.parse(input, JsonLimits.LENIENT)).isNotNull();
    }

    @Test
    void parse_lenientInvalidUtf8_replacementCharacter() {
        assertThat(Json.parse(bytes("\"a", 0xff, "b\""), JsonLimits.LENIENT)).isEqualTo("a\uFFFDb");
    }

    @Test
    void parse_iJson_acceptsValidPairsAndMultibyte() {
        assertThat(Json.parse("{\"k\":\"\\ud83d\\ude00 é 日本\"}".getBytes(StandardCharsets.UTF_8), JsonLimits.I_JSON))
                .isEqualTo(Map.of("k", "😀 é 日本"));
    }

    // ---- writer and round trips ----

    static Stream<Arguments> writes() {
        return Stream.of(
                Arguments.of(null, "null"),
                Arguments.of(true, "true"),
                Arguments.of(7L, "7"),
                Arguments.of(7, "7"),
                Arguments.of(1.5, "1.5"),
                Arguments.of(2.0, "2"),
                Arguments.of(Double.NaN, "null"),
                Arguments.of(Double.POSITIVE_INFINITY, "null"),
                Arguments.of("q\"b\\s/", "\"q\\\"b\\\\s/\""),
                Arguments.of("\n\r\t\b\f", "\"\\n\\r\\t\\b\\f\""),
                Arguments.of("\u0001\u001f", "\"\\u0001\\u001f\""),
                Arguments.of("\u2028\u2029", "\"\\u2028\\u2029\""),
                Arguments.of("é😀", "\"é😀\""),
                Arguments.of(List.of(1L, "a"), "[1,\"a\"]"),
                Arguments.of(new Json.RawJson("{\"raw\": [1, 2]}"), "{\"raw\": [1, 2]}"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("writes")
    void write_value_compactJson(Object value, String expected) {
        assertThat(Json.write(value)).isEqualTo(expected);
    }

    static Stream<String> roundTrips() {
        return Stream.of(
                "{\"session_id\":\"2a69a5cf\",\"n\":[1,-2,3.25,1.0E20,true,false,null],\"o\":{\"nested\":{\"deep\":[[]]}}}",
                "{\"text\":\"line\\nbreak \\\"q\\\" \\\\ \\u0001 é 😀 \\u2028\"}",
                "[]",
                "{}",
                "\"\"",
                "[9223372036854775807,-9223372036854775808,1234567890123456789]");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("roundTrips")
    void write_parse_roundTripIsIdentity(String text) {
        Object value = Json.parse(text);

        String written = Json.write(value);

        assertThat(Json.parse(written)).isEqualTo(value);
        assertThat(Json.write(Json.parse(written))).isEqualTo(written);
    }

    @Test
    void write_realClaudePayload_roundTripsByteForByte() {
        String payload = "{\"session_id\":\"2a69a5cf-143c-417e-8f79-330e3ab44114\",\"cwd\":\"/home/dev/proj\","
                + "\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"echo from-sub\","
                + "\"description\":\"sub echo\"},\"tool_response\":{\"stdout\":\"from-sub\",\"stderr\":\"\",\"interrupted\":false,"
                + "\"isImage\":false},\"tool_use_id\":\"toolu_69a57155a25d425da0244a74\",\"duration_ms\":26}";

        assertThat(Json.write(Json.parse(payload))).isEqualTo(payload);
    }

    /**
     * Regression: the writer copied lone surrogates (which the lenient reader accepts from
     * {@code \\ud800} escapes, as JavaScript hosts emit them) into its output, and encoding that
     * text as UTF-8 turned them into '?'. They are written as escapes now.
     */
    @Test
    void loneSurrogate_writtenAsEscape_survivesUtf8() {
        Object value = Json.parse("{\"s\":\"a\\ud800b\\udc00c\\ud83d\\ude00\"}");

        String written = Json.write(value);
        byte[] utf8 = written.getBytes(StandardCharsets.UTF_8);

        assertThat(written).isEqualTo("{\"s\":\"a\\ud800b\\udc00c\uD83D\uDE00\"}");
        assertThat(Json.parse(utf8, JsonLimits.LENIENT)).isEqualTo(value);
    }

    @Test
    void writePretty_indentedAndParsesBack() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("hooks", Map.of("Stop", List.of(Map.of("hooks", List.of()))));
        value.put("empty", Map.of());

        String pretty = Json.writePretty(value);

        assertThat(pretty).isEqualTo("""
                {
                  "hooks": {
                    "Stop": [
                      {
                        "hooks": []
                      }
                    ]
                  },
                  "empty": {}
                }
                """);
        assertThat(Json.parse(pretty)).isEqualTo(value);
    }

    private static byte[] bytes(Object... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (Object p : parts) {
            if (p instanceof String s) {
                out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
            } else {
                out.write((Integer) p);
            }
        }
        return out.toByteArray();
    }
}
