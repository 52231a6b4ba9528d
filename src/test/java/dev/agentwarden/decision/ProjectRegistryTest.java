package dev.agentwarden.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.testing.HostPayloads;
import dev.agentwarden.testing.InProcessDispatch;
import dev.agentwarden.testing.MutableClock;
import dev.agentwarden.testing.TestTrust;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Dispatch adds a project to the user's registry when it creates a decision segment, once, privately. */
class ProjectRegistryTest {
    @TempDir
    Path project;
    @TempDir
    Path cache;

    @Test
    void dispatch_firstDecisionOfAProject_registersItOnce_0600() throws Exception {
        MutableClock clock = MutableClock.at("2026-11-30T23:59:00Z");
        InProcessDispatch dispatch = new InProcessDispatch(cache, clock);
        Map<String, String> env = Map.of("XDG_STATE_HOME", TestTrust.stateHome(cache));
        run(dispatch);
        run(dispatch);
        clock.advance(Duration.ofMinutes(2)); // a new month: a new segment, already registered
        run(dispatch);

        assertThat(Files.list(DecisionLog.dir(project.toString())).count()).isEqualTo(2);
        assertThat(ProjectRegistry.roots(env)).containsExactly(project.toString());
        Path file = ProjectRegistry.file(env);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent()))).isEqualTo("rwx------");
    }

    @Test
    void registryALink_isRefused_withANote_andTheAnswerUnchanged() throws Exception {
        MutableClock clock = MutableClock.at("2026-11-30T10:00:00Z");
        InProcessDispatch dispatch = new InProcessDispatch(cache, clock);
        Map<String, String> env = Map.of("XDG_STATE_HOME", TestTrust.stateHome(cache));
        Path file = ProjectRegistry.file(env);
        Files.createDirectories(file.getParent());
        Files.setPosixFilePermissions(file.getParent(), PosixFilePermissions.fromString("rwx------"));
        Path elsewhere = Files.writeString(cache.resolve("elsewhere"), "");
        Files.createSymbolicLink(file, elsewhere);

        InProcessDispatch.Response r = run(dispatch);

        assertThat(r.exitCode()).isZero();
        assertThat(r.stderr()).contains("project not added to").contains("the hook answer is unchanged");
        assertThat(Files.readString(elsewhere)).isEmpty();
        assertThat(Files.readAllLines(DecisionLog.dir(project.toString()).resolve("2026-11.jsonl"))).hasSize(1);
    }

    private InProcessDispatch.Response run(InProcessDispatch dispatch) {
        Map<String, Object> p = HostPayloads.claude("PreToolUse", "tool_name", "Bash", "tool_input", Map.of("command", "ls"));
        p.put("cwd", project.toString());
        return dispatch.run("claude", Json.write(p));
    }
}
