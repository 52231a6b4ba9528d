package dev.agentwarden.builtin;

import dev.agentwarden.testing.DispatchCall;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.concern.ConcernContext;
import dev.agentwarden.concern.ConcernResult;
import dev.agentwarden.concern.Decision;
import dev.agentwarden.digest.Sha256;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.host.claude.ClaudeAdapter;
import dev.agentwarden.integrity.IntegrityGate;
import dev.agentwarden.integrity.EvidenceReplay;
import dev.agentwarden.integrity.GateSession.AttachStatus;
import dev.agentwarden.integrity.GateSession.ReadStatus;
import dev.agentwarden.integrity.Outcome.ReleaseIntegrity;
import dev.agentwarden.release.JsonFileReleaseStore;
import dev.agentwarden.integrity.Outcome;
import dev.agentwarden.release.ReleaseKey;
import dev.agentwarden.integrity.fixture.SquadArtifacts;
import dev.agentwarden.json.Json;
import dev.agentwarden.testing.TestTrust;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.concern.Posture;
import dev.agentwarden.release.KeyFiles;
import dev.agentwarden.release.Publisher;
import dev.agentwarden.release.SigningKey;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Claude Code attach mode: builtin:integrity-attach on SessionStart. */
class IntegrityAttachTest {
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-07-21T10:00:00Z"), ZoneOffset.UTC);
    static final String HEAD = "<!-- mine:head -->";
    static final String EOF = "<!-- mine:eof -->";

    @TempDir
    Path project;

    private static String smallAgent() {
        return "---\nname: reviewer\n---\n" + HEAD + "\nReview every diff. Ünïcödé ✓ 🚀\r\nline two\n" + EOF + "\n";
    }

    private Map<String, Object> markerSettings(String agent) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("agent", agent);
        s.put("profile", "markers");
        s.put("head_marker", HEAD);
        s.put("eof_marker", EOF);
        return s;
    }

    private ConcernResult run(Map<String, Object> settings, Posture posture, EventName event, String source) {
        return run(settings, posture, event, source, Map.of());
    }

    private ConcernResult run(Map<String, Object> settings, Posture posture, EventName event, String source,
                              Map<String, String> env) {
        ConcernSpec spec = new ConcernSpec("agent-integrity", "builtin:integrity-attach", List.of(), false, posture, Set.of(),
                10_000, false, 0, settings);
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("session_id", "sess-1");
        if (source != null) {
            payload.put("source", source);
        }
        payload.put("cwd", project.toString());
        HookEvent e = Hosts.demo().adapter().normalize("SessionStart", event, payload, new byte[0], project.toString());
        return new IntegrityAttach().evaluate(new ConcernContext(e, spec, CLOCK, project.resolve(".warden"), env));
    }

    /** The project's evidence log, one JSON object per line, as written. */
    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> log() throws IOException {
        List<Map<String, Object>> out = new java.util.ArrayList<>();
        for (String line : Files.readAllLines(IntegrityGate.evidenceLogFile(project.resolve(".warden")))) {
            out.add((Map<String, Object>) Json.parse(line));
        }
        return out;
    }

    private Map<String, Object> logged(String event) throws IOException {
        return log().stream().filter(line -> event.equals(line.get("event"))).findFirst().orElseThrow();
    }

    @Test
    void builtins_registerIntegrityAttach() {
        assertThat(Builtins.NAMES).contains(IntegrityAttach.NAME);
        assertThat(Builtins.create(new ConcernSpec("i", "builtin:" + IntegrityAttach.NAME, List.of(), false, Posture.BLOCKING,
                Set.of(), 10_000, false, 0, Map.of("agent", "squad")))).isInstanceOf(IntegrityAttach.class);
    }

    /** The gate's session label named Claude under every host ({@code sessionPrefix("claude")}); it names the host in force. */
    @Test
    void sessionStart_underCodex_gateSessionNamesCodex() throws IOException {
        Path agents = Files.createDirectories(project.resolve(".claude/agents"));
        Files.writeString(agents.resolve("reviewer.md"), smallAgent());
        ConcernSpec spec = new ConcernSpec("agent-integrity", "builtin:integrity-attach", List.of(), false,
                Posture.BLOCKING, Set.of(), 10_000, false, 0, markerSettings("reviewer"));
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("session_id", "sess-1");
        payload.put("cwd", project.toString());
        HookEvent e = Hosts.byId("codex").adapter().normalize("SessionStart", EventName.SESSION_START, payload,
                new byte[0], project.toString());

        ConcernResult r = new IntegrityAttach().evaluate(new ConcernContext(e, spec, CLOCK, project.resolve(".warden"),
                Map.of()));

        assertThat(r.decision()).isEqualTo(Decision.ALLOW);
        assertThat(log()).isNotEmpty().allSatisfy(line -> assertThat((String) line.get("session")).startsWith("codex-"));
    }

    @Test
    void sessionStart_attachesThePayloadItselfAndHashesExactlyTheEmittedText() throws IOException {
        Path agents = Files.createDirectories(project.resolve(".claude/agents"));
        Files.writeString(agents.resolve("reviewer.md"), smallAgent());
        ConcernResult r = run(markerSettings("reviewer"), Posture.BLOCKING, EventName.SESSION_START, "startup");
        assertThat(r.decision()).isEqualTo(Decision.ALLOW);
        assertThat(r.context()).isEqualTo(smallAgent());
        EvidenceReplay.SessionResult s = EvidenceReplay.replay(IntegrityGate.evidenceLogFile(project.resolve(".warden")), null)
                .sessions().get(0);
        Map<String, Object> attach = logged("prompt_attach_status");
        assertThat(attach.get("prompt_attach_status")).isEqualTo(AttachStatus.ATTACHED_FULL.name());
        assertThat(attach.get("attached_sha")).isEqualTo(Sha256.hex(r.context().getBytes(StandardCharsets.UTF_8)));
        assertThat(attach.get("channel")).isEqualTo("claude.additionalContext");
        assertThat(logged("selected_agent_id").get("host_session_id")).isEqualTo("sess-1");
        assertThat(logged("selected_agent_id").get("resolution")).isEqualTo("project .claude/agents");
        assertThat(s.recomputed().outcome()).isEqualTo(Outcome.LOADED_WITH_REPORT);
    }

    @Test
    void sessionStart_inReplayMode_evaluatesButWritesNoEvidenceOrHaltMarker() throws IOException {
        Path agents = Files.createDirectories(project.resolve(".github/agents"));
        Files.write(agents.resolve("squad.agent.md"), SquadArtifacts.coordinator("0.13.1", "", SquadArtifacts.SDK_TEMPLATE_BYTES));

        ConcernResult r = run(new HashMap<>(Map.of("agent", "squad")), Posture.BLOCKING, EventName.SESSION_START, "startup",
                Map.of("WARDEN_REPLAY", "1"));

        assertThat(r.decision()).as("the same verdict as a live start").isEqualTo(Decision.HALT);
        assertThat(project.resolve(".warden")).as("warden test and replay write no state").doesNotExist();
    }

    @Test
    void sessionStart_payloadOverTheHostCap_isAttachedPartialAndHaltsCorrupt() throws IOException {
        Path agents = Files.createDirectories(project.resolve(".github/agents"));
        byte[] squad = SquadArtifacts.coordinator("0.13.1", "", SquadArtifacts.SDK_TEMPLATE_BYTES);
        Files.write(agents.resolve("squad.agent.md"), squad);
        ConcernResult r = run(new HashMap<>(Map.of("agent", "squad")), Posture.BLOCKING, EventName.SESSION_START, "startup");
        assertThat(r.decision()).isEqualTo(Decision.HALT);
        assertThat(r.reason()).startsWith("integrity HALT_CORRUPT for agent 'squad': attach_clipped: host_output_cap");
        assertThat(r.context()).isNull();
        Map<String, Object> attach = log().get(2);
        assertThat(attach.get("event")).isEqualTo("prompt_attach_status");
        assertThat(attach.get("prompt_attach_status")).isEqualTo(AttachStatus.ATTACHED_PARTIAL.name());
        assertThat(attach.get("emitted")).isEqualTo(false);
        assertThat(attach.get("attached_bytes")).isEqualTo((long) ClaudeAdapter.OUTPUT_CAP_CHARS);
        assertThat(((Map<?, ?>) attach.get("boundaries")).get("eof")).isEqualTo(false);
        Map<String, Object> read = log().get(1);
        assertThat(read.get("event")).isEqualTo("payload_read_status");
        assertThat(read.get("payload_read_status")).isEqualTo(ReadStatus.LOADED.name());
    }

    @Test
    void sessionStart_missingAgentFile_haltsUnknownNeverSkips() {
        ConcernResult r = run(new HashMap<>(Map.of("agent", "squad")), Posture.BLOCKING, EventName.SESSION_START, "startup");
        assertThat(r.decision()).isEqualTo(Decision.HALT);
        assertThat(r.reason()).startsWith("integrity UNKNOWN_HALT for agent 'squad': payload_absent");
    }

    @Test
    void sessionStart_notUtf8_isNotAttachedAndHalts() throws IOException {
        Path agents = Files.createDirectories(project.resolve(".claude/agents"));
        byte[] bytes = (HEAD + "\nbad \u0000").getBytes(StandardCharsets.UTF_8);
        byte[] withInvalid = new byte[bytes.length + 2 + EOF.length() + 1];
        System.arraycopy(bytes, 0, withInvalid, 0, bytes.length);
        withInvalid[bytes.length] = (byte) 0xC3;
        withInvalid[bytes.length + 1] = '\n';
        System.arraycopy((EOF + "\n").getBytes(StandardCharsets.UTF_8), 0, withInvalid, bytes.length + 2, EOF.length() + 1);
        Files.write(agents.resolve("reviewer.md"), withInvalid);
        ConcernResult r = run(markerSettings("reviewer"), Posture.BLOCKING, EventName.SESSION_START, null);
        assertThat(r.decision()).isEqualTo(Decision.HALT);
        assertThat(r.reason()).contains("HALT_CORRUPT").contains("payload_not_utf8");
    }

    @Test
    void sessionStart_shadowPosture_recordsThatNothingReachedThePrompt() throws IOException {
        Path agents = Files.createDirectories(project.resolve(".claude/agents"));
        Files.writeString(agents.resolve("reviewer.md"), smallAgent());
        run(markerSettings("reviewer"), Posture.SHADOW, EventName.SESSION_START, "startup");
        Map<String, Object> attach = log().get(2);
        assertThat(attach.get("prompt_attach_status")).isEqualTo(AttachStatus.NOT_ATTACHED.name());
        assertThat((String) attach.get("reason")).startsWith("posture_shadow");
    }

    @Test
    void sessionStart_sourceNotListed_doesNothing() throws IOException {
        Path agents = Files.createDirectories(project.resolve(".claude/agents"));
        Files.writeString(agents.resolve("reviewer.md"), smallAgent());
        Map<String, Object> settings = markerSettings("reviewer");
        settings.put("sources", List.of("startup", "compact"));
        assertThat(run(settings, Posture.BLOCKING, EventName.SESSION_START, "resume")).isEqualTo(ConcernResult.allow());
        assertThat(Files.exists(project.resolve(".warden"))).isFalse();
    }

    @Test
    void misconfiguration_haltsInsteadOfFailingOpen() {
        assertThat(run(new HashMap<>(), Posture.BLOCKING, EventName.SESSION_START, null).reason())
                .startsWith("integrity UNKNOWN_HALT: integrity-attach is misconfigured: settings.agent");
        Map<String, Object> numericVersion = new HashMap<>(Map.of("agent", "squad", "client_version", 2.1));
        assertThat(run(numericVersion, Posture.BLOCKING, EventName.SESSION_START, null).reason())
                .contains("settings.client_version must be a string");
        Map<String, Object> badProfile = new HashMap<>(Map.of("agent", "squad", "profile", "fancy"));
        assertThat(run(badProfile, Posture.BLOCKING, EventName.SESSION_START, null).decision()).isEqualTo(Decision.HALT);
    }

    @Test
    void userPromptSubmit_afterAHaltAtStart_haltsAgainWithTheStartReason() throws IOException {
        Path agents = Files.createDirectories(project.resolve(".github/agents"));
        Files.write(agents.resolve("squad.agent.md"), SquadArtifacts.coordinator("0.13.1", "", SquadArtifacts.SDK_TEMPLATE_BYTES));
        Map<String, Object> settings = new HashMap<>(Map.of("agent", "squad"));
        ConcernResult start = run(settings, Posture.BLOCKING, EventName.SESSION_START, "startup");
        ConcernResult prompt = run(settings, Posture.BLOCKING, EventName.USER_PROMPT_SUBMIT, null);
        assertThat(start.decision()).isEqualTo(Decision.HALT);
        assertThat(prompt.decision()).isEqualTo(Decision.HALT);
        assertThat(prompt.reason()).startsWith(start.reason()).contains("halted at session start");
        assertThat(log()).hasSize(6);
    }

    @Test
    void userPromptSubmit_afterAPassingStart_allowsAndWritesNothing() throws IOException {
        Path agents = Files.createDirectories(project.resolve(".claude/agents"));
        Files.writeString(agents.resolve("reviewer.md"), smallAgent());
        run(markerSettings("reviewer"), Posture.BLOCKING, EventName.SESSION_START, "startup");
        int lines = log().size();
        assertThat(run(markerSettings("reviewer"), Posture.BLOCKING, EventName.USER_PROMPT_SUBMIT, null).decision())
                .isEqualTo(Decision.ALLOW);
        assertThat(log()).hasSize(lines);
        assertThat(project.resolve(".warden").resolve(HaltedSessions.RELATIVE)).doesNotExist();
    }

    @Test
    void sessionStart_passingAfterAHalt_clearsTheSessionsHalt() throws IOException {
        Path agents = Files.createDirectories(project.resolve(".claude/agents"));
        Map<String, Object> settings = markerSettings("reviewer");
        run(settings, Posture.BLOCKING, EventName.SESSION_START, "startup");
        Files.writeString(agents.resolve("reviewer.md"), smallAgent());
        assertThat(run(settings, Posture.BLOCKING, EventName.USER_PROMPT_SUBMIT, null).decision()).isEqualTo(Decision.HALT);
        run(settings, Posture.BLOCKING, EventName.SESSION_START, "resume");
        assertThat(run(settings, Posture.BLOCKING, EventName.USER_PROMPT_SUBMIT, null).decision()).isEqualTo(Decision.ALLOW);
    }

    @Test
    void haltMarker_isNamedByAHashOfTheSessionId() {
        HaltedSessions halted = new HaltedSessions(project.resolve(".warden"));
        assertThat(halted.marker("sess-1").getFileName().toString()).matches("[0-9a-f]{24}\\.halt").doesNotContain("sess");
    }

    @Test
    void otherEvents_areAnError() {
        assertThat(run(new HashMap<>(Map.of("agent", "squad")), Posture.BLOCKING, EventName.PRE_TOOL_USE, null).decision())
                .isEqualTo(Decision.ERROR);
    }

    @Test
    void brokenReleaseManifest_isReportedUntrustedAndHaltsOnlyWhenTrustIsRequired() throws IOException {
        Path agents = Files.createDirectories(project.resolve(".claude/agents"));
        Files.writeString(agents.resolve("reviewer.md"), smallAgent());
        Files.writeString(project.resolve("releases.json"), "{not json");
        Map<String, Object> settings = markerSettings("reviewer");
        settings.put("release_manifest", "releases.json");
        settings.put("agent_version", "1.0");
        settings.put("client_version", "2.1.0");
        assertThat(run(settings, Posture.BLOCKING, EventName.SESSION_START, null).decision()).isEqualTo(Decision.ALLOW);
        settings.put("require_trusted_manifest", true);
        ConcernResult required = run(settings, Posture.BLOCKING, EventName.SESSION_START, null);
        assertThat(required.decision()).isEqualTo(Decision.HALT);
        assertThat(required.reason()).contains("release_manifest_untrusted_required");

        settings.put("trust_root", "missing-root.json");
        ConcernResult signed = run(settings, Posture.BLOCKING, EventName.SESSION_START, null);
        assertThat(signed.decision()).isEqualTo(Decision.HALT);
        assertThat(signed.reason()).contains("release_manifest_untrusted_required").contains("release_manifest_untrusted: ");
    }

    @Test
    void attach_projectFloorDeleted_rollbackStillRefused(@TempDir Path userState) throws Exception {
        Path agents = Files.createDirectories(project.resolve(".claude/agents"));
        Path agentFile = Files.writeString(agents.resolve("reviewer.md"), smallAgent());
        KeyFiles.Generated alice = KeyFiles.generate(userState.resolve("keys"), "alice");
        SigningKey key = KeyFiles.readSigningKey(alice.privateKeyFile());
        Path root = project.resolve("root.json");
        Publisher.initRoot(List.of(alice.publicKeyFile()), 1, Instant.parse("2027-07-01T00:00:00Z"), root);
        Publisher.sign(root, key, null);
        Path manifest = project.resolve("manifest.json");
        Instant expires = Instant.parse("2026-12-01T00:00:00Z");
        Publisher.add(manifest, agentFile, "reviewer", new dev.agentwarden.release.ReleaseKey("1.0", "claude-code", "2.1.0"),
                new Publisher.AddOptions(null, expires, null, false));
        Publisher.sign(manifest, key, null);
        byte[] version1 = Files.readAllBytes(manifest);
        Publisher.add(manifest, agentFile, "reviewer", new dev.agentwarden.release.ReleaseKey("1.1", "claude-code", "2.1.0"),
                new Publisher.AddOptions(null, expires, null, false));
        Publisher.sign(manifest, key, null);
        Map<String, Object> settings = markerSettings("reviewer");
        settings.put("release_manifest", "manifest.json");
        settings.put("trust_root", "root.json");
        settings.put("agent_version", "1.0");
        settings.put("client_version", "2.1.0");
        settings.put("require_trusted_manifest", true);
        Map<String, String> env = Map.of("XDG_STATE_HOME", userState.toString());
        assertThat(run(settings, Posture.BLOCKING, EventName.SESSION_START, null, env).decision())
                .isEqualTo(Decision.ALLOW);
        assertThat(userState.resolve("agent-warden/release")).isDirectoryContaining("glob:**.json");

        deleteTree(project.resolve(".warden"));
        Files.write(manifest, version1);
        ConcernResult rolledBack = run(settings, Posture.BLOCKING, EventName.SESSION_START, null, env);

        assertThat(rolledBack.decision()).isEqualTo(Decision.HALT);
        assertThat(rolledBack.reason()).contains("manifest_rollback");
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var all = Files.walk(dir)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Test
    void requireTrusted_unsignedListRegisteringTheAgent_haltsTheSessionAndWithholdsIt() throws IOException {
        Path agents = Files.createDirectories(project.resolve(".claude/agents"));
        Files.writeString(agents.resolve("reviewer.md"), smallAgent());
        Files.writeString(project.resolve("releases.json"), JsonFileReleaseStore.render(List.of(JsonFileReleaseStore.register(
                "reviewer", new ReleaseKey("1.0", "claude-code", "2.1.0"), smallAgent().getBytes(StandardCharsets.UTF_8),
                null))));
        Map<String, Object> settings = markerSettings("reviewer");
        settings.put("release_manifest", "releases.json");
        settings.put("agent_version", "1.0");
        settings.put("client_version", "2.1.0");
        ConcernResult operatorsList = run(settings, Posture.BLOCKING, EventName.SESSION_START, null);
        assertThat(operatorsList.decision()).isEqualTo(Decision.ALLOW);
        assertThat(log()).filteredOn(line -> "release_integrity".equals(line.get("event")))
                .extracting(line -> line.get("release_integrity")).containsExactly(ReleaseIntegrity.VERIFIED.name());

        settings.put("require_trusted_manifest", true);
        ConcernResult required = run(settings, Posture.BLOCKING, EventName.SESSION_START, null);
        assertThat(required.decision()).isEqualTo(Decision.HALT);
        assertThat(required.context()).isNull();
        assertThat(required.reason()).contains("UNKNOWN_HALT").contains("release_manifest_untrusted")
                .contains("release_manifest_unsigned");
        assertThat(run(settings, Posture.BLOCKING, EventName.USER_PROMPT_SUBMIT, null).decision()).isEqualTo(Decision.HALT);
    }

    @Test
    void dispatch_haltIsRenderedAsContinueFalseWithStopReason() throws IOException {
        Path agents = Files.createDirectories(project.resolve(".github/agents"));
        Files.write(agents.resolve("squad.agent.md"), SquadArtifacts.coordinator("0.13.1", "", 20_000));
        Files.createDirectories(project.resolve(".warden"));
        Files.writeString(project.resolve(".warden/manifest.yaml"), "schema_version: 1\nconcerns:\n  gate:\n"
                + "    script: builtin:integrity-attach\n    posture: blocking\n    agent: squad\n"
                + "platforms:\n  claude:\n    session_start: [gate]\n"
                + "native_event_aliases:\n  claude:\n    SessionStart: session_start\n");
        String payload = Json.write(Map.of("session_id", "s", "cwd", project.toString(), "hook_event_name", "SessionStart",
                "source", "startup"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Map<String, String> env = Map.of("CLAUDE_PROJECT_DIR", project.toString(),
                "WARDEN_CACHE_DIR", project.resolve("cache").toString(), "XDG_STATE_HOME", TestTrust.stateHome(project));
        TestTrust.trust(project, env);
        int code = DispatchCall.run(new String[] {"dispatch", "--host", "claude"},
                new ByteArrayInputStream(payload.getBytes(StandardCharsets.UTF_8)), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), env, CLOCK);
        assertThat(code).isZero();
        Map<String, Object> response = Json.parseObject(out.toString(StandardCharsets.UTF_8));
        assertThat(response).containsEntry("continue", false);
        assertThat((String) response.get("stopReason")).startsWith("[warden] integrity HALT_CORRUPT for agent 'squad'");
    }

    @Test
    void clip_neverSplitsASurrogatePair() {
        assertThat(IntegrityAttach.clip("ab🚀", 3)).isEqualTo("ab");
        assertThat(IntegrityAttach.clip("abcd", 3)).isEqualTo("abc");
    }
}
