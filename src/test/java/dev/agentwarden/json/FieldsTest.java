package dev.agentwarden.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The typed map reader in {@code json}: any document's failure type, the same checks the release reader had. */
class FieldsTest {
    private static final Fields.Failure<IllegalStateException> BAD = IllegalStateException::new;

    @Test
    void sha256_notSixtyFourLowercaseHex_failsNamingThePath_withTheReadersOwnException() {
        Fields<IllegalStateException> f = Fields.of(Map.of("sha256", "AB".repeat(32), "ok", "ab".repeat(32)), "doc", BAD);

        assertThat(f.sha256("ok")).isEqualTo("ab".repeat(32));
        assertThatThrownBy(() -> f.sha256("sha256")).isInstanceOf(IllegalStateException.class)
                .hasMessage("doc.sha256 must be 64 lowercase hex digits");
        assertThatThrownBy(() -> f.object("missing")).hasMessage("doc.missing is missing");
        assertThatThrownBy(() -> Fields.of(1L, "doc", BAD)).hasMessage("doc must be a JSON object");
    }

    @Test
    void parsed_parserRefuses_failsNamingTheFieldAndWhy() {
        Fields<IllegalStateException> f = Fields.of(Map.of("n", "x"), "doc", BAD);

        assertThatThrownBy(() -> f.parsed("n", Long::parseLong)).hasMessageStartingWith("doc.n: For input string");
    }

    @Test
    void strings_itemNotAString_failsNamingItsIndex() {
        Fields<IllegalArgumentException> f = Fields.of(Map.of("tools", java.util.List.of("Bash", 7L), "on", true), "doc",
                Fields.illegalArgument("doc_invalid"));

        assertThatThrownBy(() -> f.strings("tools", 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("doc_invalid: doc.tools[1] must be a string");
        assertThatThrownBy(() -> f.strings("tools", 1)).hasMessage("doc_invalid: doc.tools has 2 items; at most 1 are read");
        assertThat(f.bool("on")).isTrue();
        assertThatThrownBy(() -> f.bool("tools")).hasMessage("doc_invalid: doc.tools must be true or false");
        assertThat(f.optionalObject("absent")).isNull();
    }

    /** Issue 13.7: the host settings readers take a value of another shape as no setting, through Fields. */
    @Test
    void objectOrEmpty_listOrEmpty_valueOfAnotherShape_readsAsAbsent() {
        Map<String, Object> hooksConfig = Map.of("enabled", false);

        assertThat(Fields.objectOrEmpty(hooksConfig)).isSameAs(hooksConfig);
        assertThat(Fields.objectOrEmpty("hooksConfig")).isEmpty();
        assertThat(Fields.objectOrEmpty(null)).isEmpty();
        assertThat(new java.util.ArrayList<Object>(Fields.listOrEmpty(java.util.List.of("warden")))).containsExactly("warden");
        assertThat(Fields.listOrEmpty("warden")).isEmpty();
        assertThat(Fields.listOrEmpty(Map.of("warden", true))).isEmpty();
    }
}
