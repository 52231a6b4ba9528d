package dev.agentwarden.dispatch;

import dev.agentwarden.testing.SharedLocks;
import org.junit.jupiter.api.parallel.ResourceLock;
import dev.agentwarden.decision.ChainResult;
import dev.agentwarden.verdict.Verdict;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.inventory.FakeMcpServer;
import dev.agentwarden.inventory.SnapshotStore;
import dev.agentwarden.inventory.ToolHashes;
import dev.agentwarden.inventory.TurnRecords;
import dev.agentwarden.json.Json;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.manifest.ManifestCompiler;
import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.manifest.ManifestLoader;
import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Built-in {@code inventory-turns} through the dispatcher: a snapshot on SessionStart and before
 * each prompt, stored with its turn index and classified against the preregistration, with the
 * user-level Claude config naming a {@link FakeMcpServer} whose tools come from a file. Each step
 * names a new tools file, so the server's configuration changes and the manifest is re-taken
 * whether or not this JVM keeps manifests.
 */
@ResourceLock(SharedLocks.INVENTORY_CACHE)
@ResourceLock(SharedLocks.FAKE_MCP_SERVERS)
class TurnInventoryDispatchTest {
    private static final MutableClock CLOCK = MutableClock.at("2026-12-01T10:00:00Z");

    @TempDir
    Path dir;
    private Path project;
    private Path home;
    private int step;

    @BeforeEach
    void setUp() throws IOException {
        project = Files.createDirectories(dir.resolve("project"));
        home = Files.createDirectories(dir.resolve("home"));
    }

    /** Points the user's Claude config at a fake server listing {@code tools} ("hang" makes it hang). */
    private void serverLists(String... tools) throws IOException {
        Path file = Files.writeString(dir.resolve("tools-" + (step++)), String.join("\n", tools) + "\n");
        List<Object> args = new ArrayList<>(List.of("-cp", System.getProperty("java.class.path"),
                FakeMcpServer.class.getName(), "file", file.toString()));
        Map<String, Object> fake = new LinkedHashMap<>();
        fake.put("command", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        fake.put("args", args);
        fake.put("env", Map.of("FAKE_TOKEN", "never-recorded-7c1"));
        Files.writeString(home.resolve(".claude.json"), Json.write(Map.of("mcpServers", Map.of("fake", fake))));
    }

    private static String inventoryHash(String... tools) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (String t : tools) {
            Map<String, Object> tool = new LinkedHashMap<>();
            tool.put("name", t);
            tool.put("description", "the " + t + " tool");
            tool.put("inputSchema", Map.of("type", "object"));
            list.add(tool);
        }
        return ToolHashes.inventory(Map.of("claude/fake", ToolHashes.server(list)));
    }

    private Manifest manifest(String waitMs) {
        String yaml = """
                schema_version: 1
                concerns:
                  inventory:
                    script: builtin:inventory-turns
                    prereg: prereg.yaml
                    timeout_ms: 30000
                """ + "    wait_ms: " + waitMs + "\n" + """
                platforms:
                  claude:
                    session_start: [inventory]
                    user_prompt_submit: [inventory]
                """;
        try {
            ManifestCompiler.Result r = ManifestCompiler.compile("m.yaml", yaml, ManifestLoader.sha256(yaml.getBytes(StandardCharsets.UTF_8)));
            assertThat(r.problems()).noneMatch(p -> p.isError());
            return r.manifest();
        } catch (ManifestException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    private ChainResult dispatch(Manifest m, String nativeEvent, EventName event, String payload) {
        HookEvent e = TestManifests.claudeEvent(nativeEvent, event, payload, project.toString());
        return new Dispatcher(m, CLOCK, Map.of("HOME", home.toString())).dispatch(e, "");
    }

    @org.junit.jupiter.api.AfterEach
    void noServerOutlivesTheTest() {
        dev.agentwarden.inventory.InventoryCache.closeAll();
        FakeMcpServer.awaitNoneRunning();
    }

    private List<Map<String, Object>> records(String session) throws IOException {
        return new TurnRecords(project, project.resolve(".warden")).read(session);
    }

    @Test
    void promptTurns_requiredToolGoneMidSession_voidsThatTurnOnly() throws IOException {
        Files.writeString(project.resolve("prereg.yaml"), "baseline: " + inventoryHash("alpha", "beta") + "\n"
                + "variants:\n  - label: with-gamma\n    inventory: " + inventoryHash("alpha", "beta", "gamma") + "\n"
                + "required_tools: [claude/fake/beta]\n");
        Manifest m = manifest("20s");
        String start = "{\"session_id\":\"s1\",\"source\":\"startup\",\"transcript_path\":\"/t/s1.jsonl\"}";
        String prompt = "{\"session_id\":\"s1\",\"prompt\":\"go\",\"transcript_path\":\"/t/s1.jsonl\"}";

        serverLists("alpha", "beta");
        ChainResult started = dispatch(m, "SessionStart", EventName.SESSION_START, start);
        dispatch(m, "UserPromptSubmit", EventName.USER_PROMPT_SUBMIT, prompt);
        serverLists("alpha");
        ChainResult voided = dispatch(m, "UserPromptSubmit", EventName.USER_PROMPT_SUBMIT, prompt);
        serverLists("alpha", "beta", "gamma");
        dispatch(m, "UserPromptSubmit", EventName.USER_PROMPT_SUBMIT, prompt);
        serverLists("alpha", "beta", "delta");
        dispatch(m, "UserPromptSubmit", EventName.USER_PROMPT_SUBMIT, prompt);

        assertThat(started.outcomes().get(0).note()).isNull();
        assertThat(voided.outcomes().get(0).note()).isNull();
        List<Map<String, Object>> r = records("s1");
        assertThat(r).extracting(x -> x.get("phase") + "#" + x.get("turn_index") + ":" + x.get("inventory_drift"))
                .containsExactly("session_start#0:NONE", "turn#0:NONE", "turn#1:INVALIDATING", "turn#2:EXPECTED_VARIANT",
                        "turn#3:EXPLORATORY");
        assertThat(r.get(2).get("reasons")).asList().containsExactly("required tool missing: claude/fake/beta");
        assertThat(r.get(3).get("variant")).isEqualTo("with-gamma");
        assertThat(r).allSatisfy(x -> {
            assertThat(x.get("condition")).isEqualTo("fresh");
            assertThat(x.get("transcript_path")).isEqualTo("/t/s1.jsonl");
        });
        assertThat(r.get(1).get("inventory_sha256")).isEqualTo(inventoryHash("alpha", "beta"));
        Path snapshot = new SnapshotStore(project.resolve(".warden")).dir().resolve((String) r.get(2).get("snapshot"));
        assertThat(SnapshotStore.read(snapshot).turnIndex()).isEqualTo(1);
        assertThat(Files.readString(snapshot)).doesNotContain("never-recorded-7c1");
    }

    @Test
    void resumedSession_recordsContinued_andCountsTurnsOn() throws IOException {
        Files.writeString(project.resolve("prereg.yaml"), "baseline: " + inventoryHash("alpha") + "\n");
        Manifest m = manifest("20s");
        serverLists("alpha");
        dispatch(m, "SessionStart", EventName.SESSION_START, "{\"session_id\":\"s2\",\"source\":\"startup\"}");
        dispatch(m, "UserPromptSubmit", EventName.USER_PROMPT_SUBMIT, "{\"session_id\":\"s2\",\"prompt\":\"a\"}");
        dispatch(m, "SessionStart", EventName.SESSION_START, "{\"session_id\":\"s2\",\"source\":\"resume\"}");
        dispatch(m, "UserPromptSubmit", EventName.USER_PROMPT_SUBMIT, "{\"session_id\":\"s2\",\"prompt\":\"b\"}");

        assertThat(records("s2")).extracting(x -> x.get("phase") + "#" + x.get("turn_index") + ":" + x.get("condition"))
                .containsExactly("session_start#0:fresh", "turn#0:fresh", "session_start#1:continued", "turn#1:continued");
    }

    @Test
    void promptTurn_serverHangs_isRecordedMissingWithinWaitMs_andNotedOnStderr() throws IOException {
        Files.writeString(project.resolve("prereg.yaml"), "baseline: " + inventoryHash("alpha") + "\n");
        Manifest m = manifest("300");
        serverLists("hang", "alpha");

        ChainResult r = dispatch(m, "UserPromptSubmit", EventName.USER_PROMPT_SUBMIT, "{\"session_id\":\"s3\",\"prompt\":\"a\"}");

        assertThat(r.verdict().kind()).isEqualTo(Verdict.Kind.ALLOW);
        assertThat(r.outcomes().get(0).note()).contains("missing manifest: claude/fake TIMEOUT")
                .contains("no manifest within 300 ms").endsWith("fail-open");
        Map<String, Object> rec = records("s3").get(0);
        assertThat(rec.get("inventory_drift")).isEqualTo("INVALIDATING");
        assertThat(((Map<?, ?>) ((List<?>) rec.get("servers")).get(0)).get("state")).isEqualTo("missing");
    }

    @Test
    void manifest_badInventoryTurnsSetting_isACompileError() {
        String yaml = """
                schema_version: 1
                concerns:
                  inventory:
                    script: builtin:inventory-turns
                    wait_ms: 5m
                platforms:
                  claude:
                    pre_tool_use: [inventory]
                """;
        ManifestCompiler.Result r;
        try {
            r = ManifestCompiler.compile("m.yaml", yaml, ManifestLoader.sha256(yaml.getBytes(StandardCharsets.UTF_8)));
        } catch (ManifestException e) {
            assertThat(e.problems()).anySatisfy(p -> assertThat(p.toString()).contains("wait_ms"));
            assertThat(e.problems()).anySatisfy(p -> assertThat(p.toString()).contains("pre_tool_use"));
            return;
        }
        assertThat(r.problems()).filteredOn(p -> p.isError()).extracting(Object::toString)
                .anySatisfy(p -> assertThat(p).contains("wait_ms"))
                .anySatisfy(p -> assertThat(p).contains("pre_tool_use"));
    }
}
