package dev.agentwarden.trust;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link LineDiff}: what {@code warden trust} shows changed since the last trust. */
class LineDiffTest {
    @Test
    void sameLines_noDiff() {
        assertThat(LineDiff.of("a\nb\n", "a\nb\n")).isEmpty();
        assertThat(LineDiff.of("a\nb", "a\nb\n")).as("a final newline is not a line").isEmpty();
    }

    @Test
    void oneLineChanged_hunkWithContextAndLineNumbers() {
        String before = "1\n2\n3\n4\n5\n6\n7\n8\n";
        String after = "1\n2\n3\n4\nFIVE\n6\n7\n8\n";

        assertThat(LineDiff.of(before, after)).containsExactly("@@ -3,5 +3,5 @@", "  3", "  4", "- 5", "+ FIVE", "  6", "  7");
    }

    @Test
    void linesAddedAndRemovedFarApart_twoHunks() {
        String before = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
        String after = "a\nB\nb\nc\nd\ne\nf\ng\nh\nj\n";

        assertThat(LineDiff.of(before, after)).containsExactly(
                "@@ -1,3 +1,4 @@", "  a", "+ B", "  b", "  c",
                "@@ -7,4 +8,3 @@", "  g", "  h", "- i", "  j");
    }

    @Test
    void firstTrust_everyLineAdded() {
        assertThat(LineDiff.of("", "x\ny\n")).containsExactly("@@ -1,0 +1,2 @@", "+ x", "+ y");
    }

    @Test
    void aConcernDropped_showsAsRemovedLines() {
        String before = "platforms:\n  claude:\n    pre_tool_use: [no-verify, protect-warden]\n";
        String after = "platforms:\n  claude:\n    pre_tool_use: [no-verify]\n";

        assertThat(LineDiff.of(before, after)).contains("-     pre_tool_use: [no-verify, protect-warden]",
                "+     pre_tool_use: [no-verify]");
    }
}
