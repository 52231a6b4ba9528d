package dev.agentwarden.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PreregistrationTest {
    private static final String A = "a".repeat(64);
    private static final String B = "b".repeat(64);

    @Test
    void parse_documentedFormat_readsEveryField() {
        Preregistration p = Preregistration.parse("baseline: " + A + "\nvariants:\n  - label: with-github\n    inventory: "
                + B + "\nrequired_tools:\n  - claude/everything/echo\n", "t");
        assertThat(p.baseline()).isEqualTo(A);
        assertThat(p.variants()).containsEntry("with-github", B);
        assertThat(p.requiredTools()).containsExactly("claude/everything/echo");
    }

    @Test
    void parse_unknownField_isRefused() {
        assertThatThrownBy(() -> Preregistration.parse("baseline: " + A + "\nbasline: x\n", "t"))
                .hasMessageContaining("unknown field 'basline'");
    }

    @Test
    void parse_baselineThatIsNotAHash_isRefused() {
        assertThatThrownBy(() -> Preregistration.parse("baseline: latest\n", "t"))
                .hasMessageContaining("baseline must be a lowercase hex SHA-256");
    }

    @Test
    void parse_duplicateVariantLabel_isRefused() {
        assertThatThrownBy(() -> Preregistration.parse("baseline: " + A + "\nvariants:\n  - {label: x, inventory: " + B
                + "}\n  - {label: x, inventory: " + A + "}\n", "t")).hasMessageContaining("declared twice");
    }

    @Test
    void parse_requiredToolWithoutServer_isRefused() {
        assertThatThrownBy(() -> Preregistration.parse("baseline: " + A + "\nrequired_tools: [echo]\n", "t"))
                .hasMessageContaining("not host/server/tool");
    }
}
