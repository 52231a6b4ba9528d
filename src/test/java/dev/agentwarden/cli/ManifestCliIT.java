package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.WardenProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** {@code warden manifest show} and {@code lint} through the packaged jar, with the compiled cache in a temp dir. */
@Execution(ExecutionMode.CONCURRENT)
class ManifestCliIT {
    @TempDir
    Path tmp;

    private WardenProcess.Result warden(String... args) throws Exception {
        return WardenProcess.run(List.of(), List.of(args), Map.of("HOME", tmp.toString(),
                "WARDEN_CACHE_DIR", tmp.resolve("cache").toString()), new byte[0], tmp);
    }

    private static String golden() throws Exception {
        return Path.of(ManifestCliIT.class.getResource("/golden/golden-manifest.yaml").toURI()).toString();
    }

    @Test
    void show_canonicalOrNativeEvent_resolvedChainInOrder() throws Exception {
        WardenProcess.Result canonical = warden("manifest", "show", "--host", "claude", "--event", "pre_tool_use", "--manifest", golden());
        WardenProcess.Result nativeName = warden("manifest", "show", "--host", "claude", "--event", "PreToolUse", "--manifest", golden());

        assertThat(canonical.exitCode()).as(canonical.stderr()).isZero();
        assertThat(canonical.stdout()).isEqualTo(nativeName.stdout());
        List<String> lines = canonical.stdout().lines().toList();
        assertThat(lines.get(0)).isEqualTo("manifest: " + golden());
        assertThat(lines.get(1)).isEqualTo("host: claude  event: pre_tool_use  role: (default)");
        assertThat(lines.subList(2, lines.size())).hasSize(8).satisfies(chain -> {
            assertThat(chain.get(0)).startsWith(" 1. no-verify").contains("blocking").contains("builtin:block-no-verify")
                    .contains("tools=[Bash]");
            assertThat(chain.get(1)).startsWith(" 2. self-protect").contains("blocking").contains("builtin:protect-warden");
            assertThat(chain.get(3)).startsWith(" 4. curl-pipe").contains("advisory");
            assertThat(chain.get(4)).startsWith(" 5. sudo-shadow").contains("shadow");
            assertThat(chain.get(6)).startsWith(" 7. gate").contains("concerns/golden-concern.sh").contains("fail_closed");
            assertThat(chain.get(7)).startsWith(" 8. advisor").doesNotContain("fail_closed");
        });
        try (Stream<Path> cache = Files.list(tmp.resolve("cache/manifests"))) {
            assertThat(cache).as("show compiled through the cache").hasSize(1);
        }
    }

    @Test
    void show_role_dropsApplied_exceptOnPreToolUse() throws Exception {
        WardenProcess.Result stop = warden("manifest", "show", "--host", "claude", "--event", "stop", "--role", "worker", "--manifest", golden());
        WardenProcess.Result pre = warden("manifest", "show", "--host", "claude", "--event", "pre_tool_use", "--role", "worker", "--manifest", golden());

        assertThat(stop.stdout()).contains("role: worker").contains("unfinished-stop").contains("advisor").doesNotContain(" gate ");
        assertThat(pre.stdout().lines().filter(l -> l.matches(" ?\\d+\\. .*"))).hasSize(8);
    }

    @Test
    void show_nothingBound_saysSo() throws Exception {
        WardenProcess.Result r = warden("manifest", "show", "--host", "claude", "--event", "Notification", "--manifest", golden());

        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout()).contains("event: notification").contains("(no concerns bound)");
    }

    @Test
    void show_unknownEvent_exit2() throws Exception {
        WardenProcess.Result r = warden("manifest", "show", "--host", "claude", "--event", "Teatime", "--manifest", golden());

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.stderr()).contains("unknown event 'Teatime' for host claude");
    }

    @Test
    void show_brokenManifest_exit2PointingAtLint() throws Exception {
        Path broken = Files.writeString(tmp.resolve("broken.yaml"), "schema_version: 1\nconcerns: {}\nplatforms:\n  claude:\n    stop: ghost\n");

        WardenProcess.Result r = warden("manifest", "show", "--host", "claude", "--event", "stop", "--manifest", broken.toString());

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.stderr()).contains("manifest has errors").contains("warden manifest lint").doesNotContain("Exception");
        assertThat(r.stdout()).isEmpty();
    }

    /** The exit codes reach the shell (ManifestLintTest covers every finding in-process). */
    @Test
    void lint_exitCodesThroughTheProcess() throws Exception {
        Path errors = Files.writeString(tmp.resolve("errors.yaml"), "schema_version: 1\nconcerns: {}\nplatforms: {emacs: {}}\n");
        Path unreadable = Files.writeString(tmp.resolve("unreadable.yaml"), "concerns: [\n");

        WardenProcess.Result findings = warden("manifest", "lint", errors.toString());
        WardenProcess.Result broken = warden("manifest", "lint", unreadable.toString());

        assertThat(findings.exitCode()).isEqualTo(1);
        assertThat(findings.stdout()).contains(errors + ":3: error: platforms.emacs: unknown host 'emacs'");
        assertThat(broken.exitCode()).isEqualTo(2);
    }
}
