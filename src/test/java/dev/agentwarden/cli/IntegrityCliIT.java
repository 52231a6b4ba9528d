package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.integrity.fixture.AcceptanceFixtures;
import dev.agentwarden.release.JsonFileReleaseStore;
import dev.agentwarden.release.ReleaseKey;
import dev.agentwarden.integrity.fixture.SquadArtifacts;
import dev.agentwarden.json.Json;
import dev.agentwarden.testing.TestTrust;
import dev.agentwarden.testing.WardenProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * {@code warden integrity …} and {@code warden launch} run as the real jar, started with the JVM flags
 * of {@code bin/warden}. Cases run side by side: each has its own project and its own user state
 * ({@code XDG_STATE_HOME}, where release floors are kept).
 */
@Execution(ExecutionMode.CONCURRENT)
class IntegrityCliIT {
    static final Path JAR = Path.of(System.getProperty("warden.jar", "target/warden.jar")).toAbsolutePath();
    static final Path HOME = Path.of(System.getProperty("warden.home", ".")).toAbsolutePath();
    static final byte[] SQUAD = SquadArtifacts.coordinator("0.13.1", SquadArtifacts.team("Lead"), SquadArtifacts.SDK_TEMPLATE_BYTES);

    @TempDir
    Path tmp;

    Path repo;
    Path agentFile;
    Path manifest;

    record Run(int code, String out, String err) {
    }

    @BeforeEach
    void project() throws IOException {
        repo = Files.createDirectories(tmp.resolve("repo"));
        Files.createDirectories(repo.resolve(".git"));
        agentFile = Files.createDirectories(repo.resolve(".github/agents")).resolve("squad.agent.md");
        Files.write(agentFile, SQUAD);
        manifest = repo.resolve("releases.json");
        Files.writeString(manifest, JsonFileReleaseStore.render(List.of(JsonFileReleaseStore.register("squad",
                new ReleaseKey("0.13.1", "copilot-cli", "1.0.3"), SQUAD, null))));
    }

    private Run warden(Path cwd, Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of(WardenProcess.java().toString()));
        argv.addAll(WardenProcess.flagsFor(Arrays.asList(args)));
        argv.addAll(List.of("-jar", JAR.toString()));
        argv.addAll(Arrays.asList(args));
        return exec(cwd, env, argv);
    }

    private Run exec(Path cwd, Map<String, String> env, List<String> argv) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(argv).directory(cwd.toFile());
        pb.environment().remove("CLAUDE_PROJECT_DIR");
        pb.environment().remove("WARDEN_PROJECT_DIR");
        pb.environment().put("XDG_STATE_HOME", tmp.resolve("state").toString());
        pb.environment().putAll(env);
        Path out = Files.createTempFile("warden-it", ".out");
        Path err = Files.createTempFile("warden-it", ".err");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("finished in time").isTrue();
        Run r = new Run(p.exitValue(), Files.readString(out), Files.readString(err));
        Files.delete(out);
        Files.delete(err);
        return r;
    }

    private Run check(String... extra) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("integrity", "check", "--agent-file", agentFile.toString(),
                "--agent-version", "0.13.1", "--client-id", "copilot-cli", "--client-version", "1.0.3",
                "--release-manifest", manifest.toString(), "--project-dir", repo.toString(), "--json"));
        args.addAll(Arrays.asList(extra));
        return warden(repo, Map.of(), args.toArray(String[]::new));
    }

    @Test
    void check_wholeAttach_isLoadedExit0WithTheIssueJsonKeys() throws Exception {
        Run r = check("--attached", agentFile.toString());
        assertThat(r.code()).as(r.err()).isZero();
        Map<String, Object> json = Json.parseObject(r.out());
        assertThat(json).containsKeys("events", "transport_integrity", "release_integrity", "outcome",
                "source_sha_after_read", "attached_sha");
        assertThat(json.get("events")).isEqualTo(List.of("selected_agent_id", "payload_read_status", "prompt_attach_status",
                "transport_integrity", "release_integrity"));
        assertThat(json).containsEntry("transport_integrity", "INTACT").containsEntry("release_integrity", "VERIFIED")
                .containsEntry("outcome", "LOADED").containsEntry("source_sha_after_read", Sha256.hex(SQUAD))
                .containsEntry("attached_sha", Sha256.hex(SQUAD));
    }

    @Test
    void check_clippedAttach_haltsExit3() throws Exception {
        Path clipped = Files.write(tmp.resolve("clipped.md"), Arrays.copyOf(SQUAD, 10_000));
        Run r = check("--attached", clipped.toString());
        assertThat(r.code()).isEqualTo(3);
        assertThat(Json.parseObject(r.out())).containsEntry("outcome", "HALT_CORRUPT")
                .containsEntry("transport_integrity", "PARTIAL").containsEntry("release_integrity", "VERIFIED");
    }

    @Test
    void check_notSelected_skipsExit0() throws Exception {
        Run r = check("--not-selected");
        assertThat(r.code()).isZero();
        Map<String, Object> json = Json.parseObject(r.out());
        assertThat(json).containsEntry("outcome", "SKIP").containsEntry("events", List.of("agent_not_selected"));
        assertThat(json.get("transport_integrity")).isNull();
    }

    @Test
    void check_usageErrors_exit2() throws Exception {
        assertThat(warden(repo, Map.of(), "integrity", "check", "--agent-file", agentFile.toString(), "--agent-version", "1",
                "--client-id", "c", "--client-version", "w").code()).isEqualTo(2);
        assertThat(check("--attached", agentFile.toString(), "--not-selected").code()).isEqualTo(2);
        Files.writeString(manifest, "[{\"agent_id\":1}]");
        Run badManifest = check("--attached", agentFile.toString());
        assertThat(badManifest.code()).isEqualTo(2);
        assertThat(badManifest.err()).contains("release_manifest_invalid");
        assertThat(warden(repo, Map.of(), "integrity", "check", "--agent-file", agentFile.toString(), "--agent-version", "1",
                "--client-id", "c", "--client-version", "w", "--attached", tmp.resolve("none").toString()).err())
                .contains("attached_unreadable");
    }

    private static Path readableByAnyone(Path file) throws IOException {
        return Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    }

    @Test
    void check_unreadableAgentFile_isAbsentAndHalts() throws Exception {
        Files.setPosixFilePermissions(agentFile, PosixFilePermissions.fromString("---------"));
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));
        for (Path p : List.of(repo, repo.resolve(".github"), repo.resolve(".github/agents"))) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxrwxrwx"));
        }
        List<String> argv = new ArrayList<>();
        Path jar = JAR;
        if ("root".equals(System.getProperty("user.name"))) {
            // Permission bits do not stop root: run the jar as nobody, as a real user would be. Nobody
            // cannot enter a clone under a 0700 home, so it runs a copy of the jar from the temp dir.
            argv.addAll(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
            jar = readableByAnyone(Files.copy(JAR, tmp.resolve("warden.jar")));
        }
        Path attached = readableByAnyone(Files.write(tmp.resolve("attached.md"), SQUAD));
        argv.addAll(List.of("java", "-jar", jar.toString(), "integrity", "check", "--agent-file", agentFile.toString(),
                "--attached", attached.toString(), "--agent-version", "0.13.1", "--client-id", "copilot-cli",
                "--client-version", "1.0.3", "--project-dir", repo.toString(), "--json"));
        Run r = exec(tmp, Map.of(), argv);
        assertThat(r.code()).as(r.err()).isEqualTo(3);
        Map<String, Object> json = Json.parseObject(r.out());
        assertThat(json).containsEntry("payload_read_status", "ABSENT").containsEntry("outcome", "UNKNOWN_HALT");
        assertThat(Json.write(json.get("evidence"))).contains("unreadable: permission denied");
    }

    @Test
    void fixtures_json_allSixPass() throws Exception {
        Run r = warden(tmp, Map.of(), "integrity", "fixtures", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        Map<String, Object> json = Json.parseObject(r.out());
        assertThat(json).containsEntry("passed", true);
        List<?> fixtures = (List<?>) json.get("fixtures");
        assertThat(fixtures).hasSize(6);
        assertThat(fixtures).extracting(f -> (Object) ((Map<?, ?>) f).get("outcome")).containsExactly("LOADED", "HALT_CORRUPT",
                "UNKNOWN_HALT", "SKIP", "HALT_RELEASE_MISMATCH", "LOADED_WITH_REPORT");
        Map<?, ?> second = (Map<?, ?>) fixtures.get(1);
        assertThat(second.get("source_sha_after_read")).isNotNull().isNotEqualTo(second.get("attached_sha"));
    }

    @Test
    void fixtures_human_printsTheOrderedEvidence() throws Exception {
        Run r = warden(tmp, Map.of(), "integrity", "fixtures");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("Fixture 6. LEGITIMATE UNREGISTERED-LOCAL — expected LOADED_WITH_REPORT, got LOADED_WITH_REPORT: PASS")
                .contains("6/6 fixtures pass");
    }

    @Test
    void stats_text_labelsEveryColumn_soZeroFalseHaltsBesideHaltsCannotBeMisread() throws Exception {
        check("--attached", agentFile.toString());
        check("--attached", Files.write(tmp.resolve("clipped.md"), Arrays.copyOf(SQUAD, 5_000)).toString());
        check("--attached", Files.write(tmp.resolve("clipped2.md"), Arrays.copyOf(SQUAD, 4_000)).toString());

        Run stats = warden(repo, Map.of(), "integrity", "stats", "--project-dir", repo.toString());

        assertThat(stats.out()).contains("  OUTCOME                SESSIONS   WHAT IT MEANS")
                .contains("halted sessions, all outcomes: 2")
                .contains("of which halted (false halts): 0")
                .doesNotContain("; halted: ");
    }

    @Test
    void evaluateAndStats_recomputeFromTheLogAndFlagForgedVerdicts() throws Exception {
        check("--attached", agentFile.toString());
        check("--attached", Files.write(tmp.resolve("clipped.md"), Arrays.copyOf(SQUAD, 5_000)).toString());
        check("--not-selected");
        Path log = repo.resolve(".warden/state/integrity/evidence.jsonl");

        Run evaluate = warden(repo, Map.of(), "integrity", "evaluate", "--evidence", log.toString(), "--json");
        assertThat(evaluate.code()).as("a session halts").isEqualTo(3);
        List<?> sessions = (List<?>) Json.parseObject(evaluate.out()).get("sessions");
        assertThat(sessions).extracting(s -> (Object) ((Map<?, ?>) s).get("outcome")).containsExactly("LOADED", "HALT_CORRUPT", "SKIP");

        Run stats = warden(repo, Map.of(), "integrity", "stats", "--project-dir", repo.toString(), "--json");
        Map<String, Object> counts = Json.parseObject(stats.out());
        assertThat(counts).containsEntry("sessions", 3L).containsEntry("healthy_halts", 0L);
        assertThat(((Number) counts.get("false_halt_rate")).doubleValue()).isZero();
        @SuppressWarnings("unchecked")
        Map<String, Object> outcomes = (Map<String, Object>) counts.get("outcomes");
        assertThat(outcomes).containsEntry("HALT_CORRUPT", 1L).containsEntry("UNKNOWN_HALT", 0L)
                .containsEntry("LOADED", 1L).containsEntry("SKIP", 1L);

        String forged = Files.readString(log).replace("\"outcome\":\"HALT_CORRUPT\"", "\"outcome\":\"LOADED\"");
        Path forgedLog = Files.writeString(tmp.resolve("forged.jsonl"), forged);
        Run tampered = warden(repo, Map.of(), "integrity", "evaluate", "--evidence", forgedLog.toString());
        assertThat(tampered.code()).isEqualTo(1);
        assertThat(tampered.out()).contains("DISAGREES outcome: recorded LOADED, recomputed HALT_CORRUPT");

        assertThat(warden(repo, Map.of(), "integrity", "evaluate", "--evidence", tmp.resolve("none").toString()).code())
                .isEqualTo(2);
    }

    @Test
    void launch_intactAgent_handsTheHostExactlyTheVerifiedBytes() throws Exception {
        Path sub = Files.createDirectories(repo.resolve("src/deep"));
        Path copilotHome = Files.createDirectories(tmp.resolve("copilot/agents")).getParent();
        Files.writeString(copilotHome.resolve("agents/squad.agent.md"), "user-level copy");
        Run r = warden(sub, Map.of("COPILOT_HOME", copilotHome.toString()), "launch", "--agent", "squad",
                "--client", "copilot-cli", "--client-version", "1.0.3", "--agent-version", "0.13.1",
                "--release-manifest", manifest.toString(), "--", "sh", "-c",
                "sha256sum < \"$1\" | cut -d' ' -f1; echo \"$WARDEN_INTEGRITY_OUTCOME $WARDEN_AGENT_SHA256\"; stat -c %a \"$1\"",
                "sh", "{agent_file}");
        assertThat(r.code()).as(r.err()).isZero();
        String sha = Sha256.hex(SQUAD);
        assertThat(r.out().lines().toList()).containsExactly(sha, "LOADED " + sha, "400");
        assertThat(r.err()).contains("(won: project .github/agents; git root " + repo + ")")
                .contains("shadowed: " + copilotHome.resolve("agents/squad.agent.md"));
    }

    @Test
    void launch_payloadStdin_pipesTheVerifiedBytes() throws Exception {
        Run r = warden(repo, Map.of(), "launch", "--agent", "squad", "--client", "copilot-cli", "--client-version", "1.0.3",
                "--payload-stdin", "--", "sha256sum");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith(Sha256.hex(SQUAD));
    }

    @Test
    void launch_halt_neverStartsTheHost() throws Exception {
        Files.write(agentFile, Arrays.copyOf(SQUAD, SQUAD.length - 100));
        Path marker = tmp.resolve("host-ran");
        Run r = warden(repo, Map.of(), "launch", "--agent", "squad", "--client", "copilot-cli", "--client-version", "1.0.3",
                "--", "touch", marker.toString());
        assertThat(r.code()).isEqualTo(3);
        assertThat(marker).doesNotExist();
        assertThat(r.err()).contains("outcome: HALT_CORRUPT").contains("source_missing_eof_boundary")
                .contains("the host was not started");
    }

    @Test
    void launch_requireTrusted_unsignedListRegisteringTheAgent_neverStartsTheHost() throws Exception {
        Path marker = tmp.resolve("host-ran");
        Run r = warden(repo, Map.of(), "launch", "--agent", "squad", "--client", "copilot-cli", "--client-version", "1.0.3",
                "--agent-version", "0.13.1", "--release-manifest", manifest.toString(), "--require-trusted-manifest",
                "--", "touch", marker.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(3);
        assertThat(marker).doesNotExist();
        assertThat(r.err()).contains("outcome: UNKNOWN_HALT").contains("release_manifest_unsigned")
                .contains("the host was not started");
    }

    @Test
    void launch_userLevelAgentViaCopilotHome_andUnknownAgent() throws Exception {
        Path copilotHome = tmp.resolve("copilot");
        Files.createDirectories(copilotHome.resolve("agents"));
        Files.write(copilotHome.resolve("agents/helper.agent.md"), SquadArtifacts.coordinator("0.13.1", "", 4_000));
        Run user = warden(repo, Map.of("COPILOT_HOME", copilotHome.toString()), "launch", "--agent", "helper", "--client",
                "copilot-cli", "--client-version", "1.0.3", "--", "true");
        assertThat(user.code()).as(user.err()).isZero();
        assertThat(user.err()).contains("won: user $COPILOT_HOME/agents");

        Run unknown = warden(repo, Map.of("COPILOT_HOME", copilotHome.toString()), "launch", "--agent", "nope", "--client",
                "copilot-cli", "--client-version", "1.0.3", "--", "true");
        assertThat(unknown.code()).isEqualTo(3);
        assertThat(unknown.err()).contains("No such agent: nope, available: helper, squad").contains("outcome: UNKNOWN_HALT");

        assertThat(warden(repo, Map.of(), "launch", "--agent", "../x", "--client", "c", "--client-version", "1", "--", "true")
                .code()).isEqualTo(2);
    }

    @Test
    void launch_observePrompt_withoutUpstream_isAUsageError() throws Exception {
        Path marker = tmp.resolve("host-ran");
        Run r = warden(repo, Map.of(), "launch", "--observe-prompt", "--agent-id", "squad", "--client-id", "copilot-cli",
                "--client-version", "1.0.102", "--", "touch", marker.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--observe-prompt needs --upstream URL");
        assertThat(marker).doesNotExist();
    }

    @Test
    void launch_observePrompt_plainHttpUpstreamOffLoopback_isRefusedBeforeTheHostStarts() throws Exception {
        Path marker = tmp.resolve("host-ran");
        Run r = warden(repo, Map.of(), "launch", "--observe-prompt", "--upstream", "http://api.example.com/v1",
                "--agent-id", "squad", "--client-id", "copilot-cli", "--client-version", "1.0.102", "--",
                "touch", marker.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("unencrypted");
        assertThat(marker).doesNotExist();
    }

    /** A host that never called the model through the proxy proves nothing about its prompt. */
    @Test
    void launch_observePrompt_hostMakesNoModelRequest_isUnknownHalt() throws Exception {
        Run r = warden(repo, Map.of(), "launch", "--observe-prompt", "--upstream", "http://127.0.0.1:9/v1",
                "--agent-id", "squad", "--client-id", "copilot-cli", "--client-version", "1.0.102", "--",
                "sh", "-c", "echo \"$COPILOT_PROVIDER_BASE_URL $WARDEN_PROXY_URL\"");
        assertThat(r.out().strip()).as("the host is pointed at the proxy under its secret path")
                .matches("(http://127\\.0\\.0\\.1:[0-9]+/[0-9a-f]{48}) \\1");
        assertThat(r.err()).contains("made no model request").contains("UNKNOWN_HALT");
        assertThat(r.code()).as(r.err()).isEqualTo(3);
    }

    @Test
    void javaApiExample_runsAgainstTheJar() throws Exception {
        Path example = HOME.resolve("examples/java-api/PromptHostExample.java");
        Run clipped = exec(repo, Map.of(), List.of("java", "-cp", JAR.toString(), example.toString(), agentFile.toString()));
        assertThat(clipped.code()).as(clipped.err()).isEqualTo(3);
        assertThat(clipped.out()).contains("prompt_attach_status=ATTACHED_PARTIAL").contains("outcome: HALT_CORRUPT");
        Run whole = exec(repo, Map.of(), List.of("java", "-Dbudget=200000", "-cp", JAR.toString(), example.toString(),
                agentFile.toString()));
        assertThat(whole.code()).as(whole.err()).isZero();
        assertThat(whole.out()).contains("outcome: LOADED_WITH_REPORT");
        assertThat(repo.resolve(".warden/state/integrity/evidence.jsonl")).exists();
    }

    @Test
    void dispatchSessionStart_oversizedCoordinator_stopsTheSession() throws Exception {
        Files.createDirectories(repo.resolve(".warden"));
        Files.writeString(repo.resolve(".warden/manifest.yaml"), "schema_version: 1\nconcerns:\n  gate:\n"
                + "    script: builtin:integrity-attach\n    posture: blocking\n    agent: squad\n"
                + "platforms:\n  claude:\n    session_start: [gate]\n"
                + "native_event_aliases:\n  claude:\n    SessionStart: session_start\n");
        Path payload = Files.writeString(tmp.resolve("payload.json"), Json.write(Map.of("session_id", "s",
                "cwd", repo.toString(), "hook_event_name", "SessionStart", "source", "startup")));
        ProcessBuilder pb = new ProcessBuilder("java", "-jar", JAR.toString(), "dispatch", "--host", "claude")
                .directory(repo.toFile()).redirectInput(payload.toFile());
        pb.environment().put("CLAUDE_PROJECT_DIR", repo.toString());
        pb.environment().put("WARDEN_CACHE_DIR", tmp.resolve("cache").toString());
        pb.environment().put("XDG_STATE_HOME", TestTrust.stateHome(tmp));
        TestTrust.trust(repo, Map.of("XDG_STATE_HOME", TestTrust.stateHome(tmp)));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isZero();
        Map<String, Object> response = Json.parseObject(out);
        assertThat(response).containsEntry("continue", false);
        assertThat((String) response.get("stopReason")).contains("HALT_CORRUPT").contains("host_output_cap");
        assertThat(AcceptanceFixtures.fixtures()).hasSize(6);
    }
}
