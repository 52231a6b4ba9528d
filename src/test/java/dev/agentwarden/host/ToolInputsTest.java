package dev.agentwarden.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ToolInputsTest {

    @Test
    void command_stringCommand_isReturned() {
        assertThat(ToolInputs.command(Map.of("command", "git status"))).isEqualTo("git status");
        assertThat(ToolInputs.command(Map.of("command", ""))).isEmpty();
    }

    @Test
    void command_missingOrNotAString_isNull() {
        assertThat(ToolInputs.command(Map.of("cmd", "ls"))).isNull();
        assertThat(ToolInputs.command(Map.of("command", List.of("ls")))).isNull();
        assertThat(ToolInputs.command("ls")).isNull();
        assertThat(ToolInputs.command(null)).isNull();
    }

    @Test
    void strings_keysInTheirOrder_skipMissingAndNonStrings() {
        Map<String, Object> input = new LinkedHashMap<>();
        input.put("notebook_path", "/p/b.ipynb");
        input.put("file_path", "/p/a.txt");
        input.put("path", 7);

        assertThat(ToolInputs.strings(input, "file_path", "path", "notebook_path", "absent"))
                .containsExactly("/p/a.txt", "/p/b.ipynb");
        assertThat(ToolInputs.strings(Map.of("path", ""), "path")).containsExactly("");
    }

    @Test
    void strings_inputNotAnObject_isEmpty() {
        assertThat(ToolInputs.strings("a.txt", "file_path")).isEmpty();
        assertThat(ToolInputs.strings(null, "file_path")).isEmpty();
    }
}
