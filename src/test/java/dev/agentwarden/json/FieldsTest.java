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
}
