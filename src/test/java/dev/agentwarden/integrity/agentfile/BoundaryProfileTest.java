package dev.agentwarden.integrity.agentfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Markers count only at their positions. */
class BoundaryProfileTest {
    static final String HEAD = BoundaryProfile.SQUAD_HEAD_CANARY;
    static final String EOF = BoundaryProfile.SQUAD_EOF_CANARY;

    static String lines(int blankBefore, String head, String body, String last) {
        return "---\nname: Squad\n---\n" + "\n".repeat(blankBefore) + head + "\n" + body + last;
    }

    static Stream<Arguments> squadCases() {
        return Stream.of(
                Arguments.of("canaries in place", lines(0, HEAD, "body\n", EOF + "\n"), BoundaryProfile.Proof.COMPLETE),
                Arguments.of("blank lines and CRLF after EOF", lines(0, HEAD, "body\r\n", EOF + "\r\n\r\n\n"),
                        BoundaryProfile.Proof.COMPLETE),
                Arguments.of("indented canary lines", lines(0, "  " + HEAD + "\t", "body\n", "   " + EOF),
                        BoundaryProfile.Proof.COMPLETE),
                Arguments.of("head on line 15", lines(11, HEAD, "b\n", EOF + "\n"), BoundaryProfile.Proof.COMPLETE),
                Arguments.of("head on line 16 is out of position", lines(12, HEAD, "b\n", EOF + "\n"),
                        BoundaryProfile.Proof.MISSING_HEAD),
                Arguments.of("forged EOF mid-file, real tail lost", lines(0, HEAD, "x\n" + EOF + "\nmore rules\n", ""),
                        BoundaryProfile.Proof.MISSING_EOF),
                Arguments.of("EOF text sharing its line", lines(0, HEAD, "b\n", "end " + EOF + "\n"),
                        BoundaryProfile.Proof.MISSING_EOF),
                Arguments.of("EOF inside a code fence", lines(0, HEAD, "```\n", EOF + "\n```\n"),
                        BoundaryProfile.Proof.MISSING_EOF),
                Arguments.of("head text sharing its line", lines(0, "see " + HEAD, "b\n", EOF + "\n"),
                        BoundaryProfile.Proof.MISSING_HEAD),
                Arguments.of("forged head deep in the body", lines(20, "x", HEAD + "\n", EOF + "\n"),
                        BoundaryProfile.Proof.MISSING_HEAD),
                Arguments.of("no canary at all", "just text\n", BoundaryProfile.Proof.NO_MARKERS),
                Arguments.of("canaries only quoted in prose", "mentions " + HEAD + " and " + EOF + " inline\n",
                        BoundaryProfile.Proof.NO_MARKERS),
                Arguments.of("evidence text is not a marker", lines(0, HEAD, "b\n", "transport_integrity=INTACT\n"),
                        BoundaryProfile.Proof.MISSING_EOF));
    }

    @ParameterizedTest(name = "{0} → {2}")
    @MethodSource("squadCases")
    void check_squadProfile_countsMarkersOnlyAtTheirPositions(String name, String text, BoundaryProfile.Proof proof) {
        BoundaryProfile squad = BoundaryProfile.squad();
        assertThat(squad.proof(squad.check(text.getBytes(StandardCharsets.UTF_8)))).isEqualTo(proof);
    }

    @Test
    void check_headLineIsOneBased() {
        Boundaries b = BoundaryProfile.squad().check(lines(0, HEAD, "b\n", EOF).getBytes(StandardCharsets.UTF_8));
        assertThat(b.headLine()).isEqualTo(4);
        assertThat(b.eof()).isTrue();
    }

    @Test
    void check_markersProfile_usesTheGivenMarkersAndAllowsNoHead() {
        BoundaryProfile both = BoundaryProfile.markers("<!-- mine:head -->", "<!-- mine:eof -->");
        byte[] good = "<!-- mine:head -->\nrules\n<!-- mine:eof -->\n".getBytes(StandardCharsets.UTF_8);
        assertThat(both.proof(both.check(good))).isEqualTo(BoundaryProfile.Proof.COMPLETE);
        byte[] squadCanaries = (HEAD + "\nrules\n" + EOF + "\n").getBytes(StandardCharsets.UTF_8);
        assertThat(both.proof(both.check(squadCanaries))).isEqualTo(BoundaryProfile.Proof.NO_MARKERS);

        BoundaryProfile eofOnly = BoundaryProfile.markers(null, "<!-- mine:eof -->");
        assertThat(eofOnly.proof(eofOnly.check("rules\n<!-- mine:eof -->\n".getBytes(StandardCharsets.UTF_8))))
                .isEqualTo(BoundaryProfile.Proof.COMPLETE);
        assertThat(eofOnly.proof(eofOnly.check("rules cut".getBytes(StandardCharsets.UTF_8))))
                .isEqualTo(BoundaryProfile.Proof.NO_MARKERS);
    }

    @Test
    void check_profileNone_hasNoMarkers() {
        assertThat(BoundaryProfile.none().check("x".getBytes(StandardCharsets.UTF_8))).isNull();
        assertThat(BoundaryProfile.none().usesMarkers()).isFalse();
    }

    @Test
    void of_rejectsUnknownProfilesAndBadMarkers() {
        assertThatThrownBy(() -> BoundaryProfile.of("squad2", null, null)).hasMessageContaining("unknown boundary profile");
        assertThatThrownBy(() -> BoundaryProfile.of("markers", "h", null)).hasMessageContaining("EOF marker");
        assertThatThrownBy(() -> BoundaryProfile.markers(null, "two\nlines")).hasMessageContaining("one non-blank line");
        assertThatThrownBy(() -> BoundaryProfile.markers(" padded", "e")).hasMessageContaining("surrounding whitespace");
        assertThatThrownBy(() -> BoundaryProfile.markers(null, "x".repeat(257))).hasMessageContaining("256");
    }
}
