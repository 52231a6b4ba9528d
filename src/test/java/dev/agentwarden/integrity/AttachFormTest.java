package dev.agentwarden.integrity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The agent-body form, against what Copilot CLI 1.0.102 was seen to place inside {@code <agent_instructions>}. */
class AttachFormTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "frontMatter_isRemoved|---\\nname: Squad\\n---\\nBody.\\nEnd.\\n|Body.\\nEnd.",
            "crlfAndSurroundingBlanks_areNormalized|---\\nname: S\\n---\\n\\n  Head\\r\\nBody.\\n\\n\\n|Head\\nBody.",
            "noFrontMatter_keepsTheText|Plain body.\\n|Plain body.",
            "unclosedFrontMatter_isText|---\\nname: S\\nBody.|---\\nname: S\\nBody.",
            "fenceLaterInText_isNotFrontMatter|Intro\\n---\\nx\\n---\\n|Intro\\n---\\nx\\n---"})
    void agentBody_matchesCopilotsAttachment(String name, String file, String body) {
        assertEquals(unescape(body), new String(AttachForm.AGENT_BODY.apply(unescape(file).getBytes(StandardCharsets.UTF_8)),
                StandardCharsets.UTF_8));
    }

    private static String unescape(String s) {
        return s.replace("\\r", "\r").replace("\\n", "\n");
    }
}
