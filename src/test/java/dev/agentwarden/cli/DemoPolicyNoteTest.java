package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.event.EventName;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.manifest.ManifestLoader;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The demo says its manifest is not the default, which of its refusals are its own, and what the default runs. */
class DemoPolicyNoteTest {
    private static final Path CHECKOUT = Path.of(System.getProperty("user.dir"));

    @Test
    void note_namesTheDemosOwnRulesAndTheDefaultChain() throws Exception {
        String note = DemoPolicyNote.of(CHECKOUT, Map.of());

        assertThat(note).startsWith("Note: this demo runs its own manifest, examples/demo/manifest.yaml, not the default policy.")
                .contains("Its refusals from no-force-push, protect-env").contains("the default allows those");
        String defaultPart = note.substring(note.indexOf("PreToolUse chain is: "));
        Manifest defaults = ManifestLoader.load(ManifestLoader.builtinDefault(), Map.of());
        for (ConcernSpec c : defaults.chain("claude", EventName.PRE_TOOL_USE, Manifest.DEFAULT_ROLE)) {
            assertThat(defaultPart).contains(c.name());
        }
        assertThat(defaultPart).doesNotContain("no-force-push").doesNotContain("protect-env");
    }

    @Test
    void lines_breakAtSpacesWithinTheWidth() {
        assertThat(DemoPolicyNote.lines("aaa bbb ccc dddd", 8)).containsExactly("aaa bbb", "ccc dddd");
    }
}
