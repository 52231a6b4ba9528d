package dev.agentwarden.canonical;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.json.JsonException;
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

class JcsTest {

    static Stream<Arguments> texts() {
        return Stream.of(
                Arguments.of("whitespace removed", " { \"a\" :\t[ 1 ,\r\n 2 ] } ", "{\"a\":[1,2]}"),
                Arguments.of("keys sorted, arrays kept", "{\"b\":[3,1,2],\"a\":0}", "{\"a\":0,\"b\":[3,1,2]}"),
                Arguments.of("nested keys sorted", "{\"z\":{\"y\":1,\"x\":2}}", "{\"z\":{\"x\":2,\"y\":1}}"),
                Arguments.of("utf-16 order puts astral before U+FF61",
                        "{\"\\uff61\":1,\"\\ud83d\\ude00\":2}", "{\"\ud83d\ude00\":2,\"\uff61\":1}"),
                Arguments.of("controls as lowercase hex", "\"\\u001F\\u0000\\u000B\"", "\"\\u001f\\u0000\\u000b\""),
                Arguments.of("short escapes", "\"\\u0008\\u0009\\u000a\\u000c\\u000d\"", "\"\\b\\t\\n\\f\\r\""),
                Arguments.of("slash and DEL raw", "\"\\/\\u007f\"", "\"/\u007f\""),
                Arguments.of("line separators raw", "\"\\u2028\\u2029\"", "\"\u2028\u2029\""),
                Arguments.of("quote and backslash escaped", "\"\\u0022\\u005c\"", "\"\\\"\\\\\""),
                Arguments.of("negative zero", "-0", "0"),
                Arguments.of("negative zero fraction", "[-0.0,0e10]", "[0,0]"),
                Arguments.of("integer beyond 2^53 rounds like a double", "9007199254740993", "9007199254740992"),
                Arguments.of("big integer in exponent form", "123456789012345678901234", "1.2345678901234569e+23"),
                Arguments.of("literals", "[true,false,null]", "[true,false,null]"),
                Arguments.of("empty containers", "[{},[],\"\"]", "[{},[],\"\"]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("texts")
    void canonicalize_text_givesCanonicalForm(String why, String input, String expected) {
        byte[] out = Jcs.canonicalize(input.getBytes(StandardCharsets.UTF_8));

        assertThat(new String(out, StandardCharsets.UTF_8)).isEqualTo(expected);
    }

    static Stream<Arguments> rejected() {
        return Stream.of(
                Arguments.of("duplicate property", "{\"a\":1,\"a\":1}".getBytes(StandardCharsets.UTF_8), "json_duplicate_key"),
                Arguments.of("duplicate spelled with an escape", "{\"a\":1,\"\\u0061\":2}".getBytes(StandardCharsets.UTF_8),
                        "json_duplicate_key"),
                Arguments.of("nested duplicate", "[{\"k\":{\"x\":1,\"x\":2}}]".getBytes(StandardCharsets.UTF_8),
                        "json_duplicate_key"),
                Arguments.of("lone high surrogate", "\"\\ud800\"".getBytes(StandardCharsets.UTF_8), "json_lone_surrogate"),
                Arguments.of("lone low surrogate in key", "{\"\\udc00\":1}".getBytes(StandardCharsets.UTF_8),
                        "json_lone_surrogate"),
                Arguments.of("reversed surrogate pair", "\"\\ude00\\ud83d\"".getBytes(StandardCharsets.UTF_8),
                        "json_lone_surrogate"),
                Arguments.of("invalid utf-8 byte", new byte[] {'"', (byte) 0xff, '"'}, "json_invalid_utf8"),
                Arguments.of("utf-8 encoded surrogate", new byte[] {'"', (byte) 0xed, (byte) 0xa0, (byte) 0x80, '"'},
                        "json_invalid_utf8"),
                Arguments.of("overlong utf-8", new byte[] {'"', (byte) 0xc0, (byte) 0xaf, '"'}, "json_invalid_utf8"),
                Arguments.of("number out of double range", "1e400".getBytes(StandardCharsets.UTF_8), "json_number_range"),
                Arguments.of("NaN literal", "NaN".getBytes(StandardCharsets.UTF_8), "json_syntax"),
                Arguments.of("trailing text", "{} {}".getBytes(StandardCharsets.UTF_8), "json_trailing"),
                Arguments.of("empty input", new byte[0], "json_empty"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejected")
    void canonicalize_nonIJson_isRejectedWithCode(String why, byte[] input, String code) {
        assertThatThrownBy(() -> Jcs.canonicalize(input))
                .isInstanceOfSatisfying(JsonException.class, e -> assertThat(e.code()).isEqualTo(code));
    }

    @Test
    void canonicalBytes_valueTree_sortsAndEncodesUtf8() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("\u00e9", List.of(1L, 2.5, "x"));
        value.put("a", null);
        value.put("\ud83d\ude02", Boolean.TRUE);

        byte[] bytes = Jcs.canonicalBytes(value);

        assertThat(bytes).isEqualTo("{\"a\":null,\"\u00e9\":[1,2.5,\"x\"],\"\ud83d\ude02\":true}"
                .getBytes(StandardCharsets.UTF_8));
    }

    static Stream<Arguments> unrepresentable() {
        return Stream.of(
                Arguments.of("NaN", Double.NaN, "jcs_non_finite_number"),
                Arguments.of("infinity", List.of(Double.POSITIVE_INFINITY), "jcs_non_finite_number"),
                Arguments.of("lone surrogate string", "a\ud800b", "jcs_lone_surrogate"),
                Arguments.of("lone surrogate at end", Map.of("k", "\ud83d"), "jcs_lone_surrogate"),
                Arguments.of("foreign type", Map.of("k", new Object()), "jcs_unsupported_type"),
                Arguments.of("non-string key", Map.of(1, "v"), "jcs_unsupported_type"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unrepresentable")
    void canonicalBytes_unrepresentableValue_isRejectedWithCode(String why, Object value, String code) {
        assertThatThrownBy(() -> Jcs.canonicalBytes(value))
                .isInstanceOfSatisfying(JcsException.class, e -> assertThat(e.code()).isEqualTo(code));
    }

    @Test
    void sha256Hex_canonicalForm_matchesDigestOfLiteralText() throws Exception {
        String canonical = "{\"a\":1,\"b\":[true]}";
        byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
                .digest(canonical.getBytes(StandardCharsets.UTF_8));

        String hex = Sha256.hex(Jcs.canonicalize("{ \"b\" : [ true ], \"a\" : 1.0 }".getBytes(StandardCharsets.UTF_8)));

        assertThat(hex).isEqualTo(java.util.HexFormat.of().formatHex(digest));
        assertThat(Arrays.asList(hex.split(""))).allMatch(c -> "0123456789abcdef".contains(c));
    }
}
