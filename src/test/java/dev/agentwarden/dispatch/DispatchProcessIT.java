package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.WardenProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code warden dispatch} as the host runs it: the packaged jar in its own process. */
class DispatchProcessIT {

    /**
     * Regression: dispatch wrote through {@code System.out}, which encodes with the platform
     * charset, so under {@code LANG=C} the " · " between joined reasons and any non-ASCII reason
     * text reached the host as '?'.
     */
    @Test
    void platformCharsetStdout_underLangC_keepsNonAsciiAsUtf8(@TempDir Path tmp) throws Exception {
        Path manifest = Files.writeString(tmp.resolve("manifest.yaml"), """
                schema_version: 1
                concerns:
                  first:
                    script: builtin:deny-pattern
                    patterns: [{match: 'rm', reason: "supprimé: déjà vu"}]
                  second:
                    script: builtin:deny-pattern
                    patterns: [{match: 'rm', reason: "日本語の理由"}]
                platforms:
                  claude:
                    pre_tool_use: [first, second]
                native_event_aliases:
                  claude:
                    PreToolUse: pre_tool_use
                """, StandardCharsets.UTF_8);
        byte[] payload = ("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm x\"},"
                + "\"cwd\":\"" + tmp + "\"}").getBytes(StandardCharsets.UTF_8);

        WardenProcess.Result r = WardenProcess.run(List.of(),
                List.of("dispatch", "--host", "claude", "--manifest", manifest.toString()),
                Map.of("WARDEN_CACHE_DIR", tmp.resolve("cache").toString(), "LANG", "C", "LC_ALL", "C"), payload, tmp);

        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout()).isEqualTo("{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\","
                + "\"permissionDecisionReason\":\"[warden] supprimé: déjà vu · 日本語の理由\"}}");
        assertThat(r.stderr()).isEmpty();
    }
}
