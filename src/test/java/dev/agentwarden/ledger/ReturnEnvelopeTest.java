package dev.agentwarden.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ReturnEnvelopeTest {
    static final String OK = "{\"summary\":\"fixed the parser\",\"handoff\":\"run mvn verify\",\"confidence\":\"high\","
            + "\"findings\":[{\"title\":\"off-by-one in scanner\"}],\"risks\":[\"none known\"]}";

    static String envelope(String summary, String confidence) {
        return "{\"summary\":" + summary + ",\"handoff\":\"h\",\"confidence\":\"" + confidence + "\",\"findings\":[],\"risks\":[]}";
    }

    static Stream<Arguments> messages() {
        return Stream.of(
                Arguments.of("absent", null, "no_message", null),
                Arguments.of("blank", "  \n", "no_message", null),
                Arguments.of("not a string", 42L, "no_message", null),
                Arguments.of("plain prose", "SUB-FINAL: sub done", "no_envelope", null),
                Arguments.of("prose with unbalanced braces", "use {x or } here", "no_envelope", null),
                Arguments.of("bare envelope", OK, "ok", null),
                Arguments.of("fenced json block", "Done.\n```json\n" + OK + "\n```\n", "ok", null),
                Arguments.of("closing brace inside a string",
                        "result: " + envelope("\"a } b { c\"", "medium"), "ok", null),
                Arguments.of("escaped quote before a brace in a string",
                        envelope("\"say \\\"}\\\" twice\"", "low"), "ok", null),
                Arguments.of("unclosed prose brace before the envelope", "I used {x in code. " + OK, "ok", null),
                Arguments.of("foreign object only", "config: {\"port\": 8080}", "foreign_object", null),
                Arguments.of("foreign object then envelope", "{\"a\":1} and " + OK, "ok", null),
                Arguments.of("bad confidence", envelope("\"s\"", "certain"), "fail", "confidence_invalid"),
                Arguments.of("summary missing", "{\"handoff\":\"h\",\"confidence\":\"low\",\"findings\":[],\"risks\":[]}",
                        "fail", "summary_invalid"),
                Arguments.of("summary too long", envelope("\"" + "x".repeat(2001) + "\"", "low"), "fail", "summary_too_long"),
                Arguments.of("summary at the limit", envelope("\"" + "x".repeat(2000) + "\"", "low"), "ok", null),
                Arguments.of("finding without title",
                        "{\"summary\":\"s\",\"handoff\":\"h\",\"confidence\":\"low\",\"findings\":[{}],\"risks\":[]}",
                        "fail", "finding_title_invalid"),
                Arguments.of("too many risks",
                        "{\"summary\":\"s\",\"handoff\":\"h\",\"confidence\":\"low\",\"findings\":[],\"risks\":["
                                + "1,".repeat(40) + "1]}", "fail", "risks_too_many"),
                Arguments.of("envelope over 12000 chars",
                        "{\"summary\":\"s\",\"handoff\":\"h\",\"confidence\":\"low\",\"findings\":[],\"risks\":[\""
                                + "r".repeat(12_000) + "\"]}", "fail", "envelope_too_large"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("messages")
    void classify_message_givesVerdict(String name, Object message, String verdict, String problem) {
        ReturnEnvelope.Result r = ReturnEnvelope.classify(message);

        assertThat(r.verdict().wire()).isEqualTo(verdict);
        assertThat(r.problem()).isEqualTo(problem);
    }

    @Test
    void objectSpans_braceInsideString_doesNotCloseTheObject() {
        assertThat(ReturnEnvelope.objectSpans("x {\"k\":\"}\"} y {\"m\":{\"n\":1}} z"))
                .containsExactly("{\"k\":\"}\"}", "{\"m\":{\"n\":1}}");
    }

    @Test
    void classify_manyUnclosedBraces_staysBounded() {
        String hostile = "{".repeat(200_000) + OK;

        assertThat(ReturnEnvelope.classify(hostile).verdict()).isEqualTo(ReturnEnvelope.Verdict.NO_ENVELOPE);
    }
}
