package dev.agentwarden.e2e;

import dev.agentwarden.testing.WardenProcess;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code .ci/check-host-versions} against a stand-in {@code npm} on the {@code PATH} that answers
 * {@code npm view <package> version} from a table: a pin behind npm's newest fails, a current pin
 * passes, and an npm that cannot be asked is exit 2, never "current".
 */
class HostVersionsCheckTest {
    private static final Path SCRIPT = Path.of(".ci/check-host-versions").toAbsolutePath();

    @TempDir
    Path dir;

    private Command.Result check(String properties, String npmAnswers) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        WardenProcess.writeScript(bin.resolve("npm"), "#!/bin/sh\n"
                + "# stand-in: npm view <package> version\n"
                + "case \"$3\" in version) ;; *) exit 1 ;; esac\n"
                + "case \"$2\" in\n" + npmAnswers + "  *) exit 1 ;;\nesac\n", "rwxr-xr-x");
        Path props = Files.writeString(dir.resolve("hosts.properties"), properties, StandardCharsets.UTF_8);
        Map<String, String> env = new java.util.LinkedHashMap<>(System.getenv());
        env.put("PATH", bin + ":" + System.getenv("PATH"));
        return Command.run(List.of(SCRIPT.toString(), props.toString()), dir, env, Duration.ofSeconds(60));
    }

    @Test
    void pinBehindNpmsNewest_exitsOne_andNamesIt() throws IOException {
        Command.Result r = check("# pins\ncline=3.0.65\ncodex=0.171.0\n",
                "  cline) echo 3.0.66 ;;\n  @openai/codex) echo 0.171.0 ;;\n");

        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isEqualTo(1);
        assertThat(r.stdout()).containsPattern("cline +cline +3\\.0\\.65 +3\\.0\\.66 +BEHIND")
                .containsPattern("codex +@openai/codex +0\\.171\\.0 +0\\.171\\.0 +current");
        assertThat(r.stderr()).contains("a pin is behind npm");
    }

    @Test
    void everyPinCurrent_claudeCodeHeldOnPurpose_exitsZero() throws IOException {
        Command.Result r = check("claude-code=2.1.197\nclaude-code-current=2.1.332\ncline=3.0.65\n",
                "  @anthropic-ai/claude-code) echo 2.1.332 ;;\n  cline) echo 3.0.65 ;;\n");

        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isZero();
        assertThat(r.stdout()).contains("held on purpose").containsPattern("claude-code-current .* current");
    }

    @Test
    void pinHeldWithAReason_behindNpm_isReportedWithItsReason_andDoesNotFail() throws IOException {
        Command.Result r = check("kilocode=7.7.7\nheld.kilocode=no linux-x64 binary for 7.8.1\ncline=3.0.65\n",
                "  @kilocode/cli) echo 7.8.1 ;;\n  cline) echo 3.0.65 ;;\n");

        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isZero();
        assertThat(r.stdout()).contains("held on purpose (no linux-x64 binary for 7.8.1)")
                .doesNotContain("held.kilocode").doesNotContain("BEHIND");
    }

    @Test
    void npmUnreachable_exitsTwo_neverCurrent() throws IOException {
        Command.Result r = check("cline=3.0.65\n", "");

        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isEqualTo(2);
        assertThat(r.stdout()).contains("npm unreachable").doesNotContain("current");
    }
}
