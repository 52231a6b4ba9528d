package dev.agentwarden.integrity.agentfile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The attach forms, against what Copilot CLI 1.0.102 and Claude Code 2.1.197 were seen to send. */
class AttachFormTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "frontMatter_isRemoved|---\\nname: Squad\\n---\\nBody.\\nEnd.\\n|Body.\\nEnd.",
            "crlfAndSurroundingBlanks_areNormalized|---\\nname: S\\n---\\n\\n  Head\\r\\nBody.\\n\\n\\n|Head\\nBody.",
            "noFrontMatter_keepsTheText|Plain body.\\n|Plain body.",
            "unclosedFrontMatter_isText|---\\nname: S\\nBody.|---\\nname: S\\nBody.",
            "fenceLaterInText_isNotFrontMatter|Intro\\n---\\nx\\n---\\n|Intro\\n---\\nx\\n---"})
    void agentBodyLf_matchesCopilotsAttachment(String name, String file, String body) {
        assertEquals(unescape(body), new String(AttachForm.AGENT_BODY_LF.apply(unescape(file).getBytes(StandardCharsets.UTF_8)),
                StandardCharsets.UTF_8));
    }

    /** Claude Code 2.1.197 keeps a CRLF inside the body of {@code --agent squad}; Copilot does not. */
    @Test
    void agentBody_keepsCrlf_asClaudeCodeAttachesIt() {
        byte[] file = "---\nname: squad\n---\nHead\r\nBody.\n\n".getBytes(StandardCharsets.UTF_8);
        assertEquals("Head\r\nBody.", new String(AttachForm.AGENT_BODY.apply(file), StandardCharsets.UTF_8));
        assertEquals("Head\nBody.", new String(AttachForm.AGENT_BODY_LF.apply(file), StandardCharsets.UTF_8));
        assertEquals(new String(file, StandardCharsets.UTF_8), new String(AttachForm.FILE.apply(file), StandardCharsets.UTF_8));
    }

    private static String unescape(String s) {
        return s.replace("\\r", "\r").replace("\\n", "\n");
    }
}
