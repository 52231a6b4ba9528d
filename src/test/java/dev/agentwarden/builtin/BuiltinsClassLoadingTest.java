package dev.agentwarden.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Built-in settings are parsed by their descriptors, and {@code deny-pattern}'s compile regexes: a
 * cold dispatch from the compiled cache loads {@code java.util.regex} only where a concern that
 * needs it is bound. Each event runs one dispatch JVM with class loading logged.
 */
class BuiltinsClassLoadingTest {
    @TempDir
    Path dir;

    @Test
    void dispatch_defaultManifestEvents_loadNoRegex() throws Exception {
        String[][] events = {
                {"PreToolUse", "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"git commit -m x\"}}"},
                {"PreToolUse", "{\"tool_name\":\"Agent\",\"tool_input\":{\"prompt\":\"p\"}}"},
                {"SubagentStart", "{\"agent_id\":\"a1\",\"agent_type\":\"general-purpose\"}"},
                {"SubagentStop", "{\"agent_id\":\"a1\",\"agent_type\":\"general-purpose\"}"}};
        dispatch(null, "Stop", "{}"); // compiles the default manifest (YAML) into the cache the events read
        for (String[] e : events) {
            List<String> loaded = dispatch(null, e[0], e[1]);

            assertThat(loaded).as(e[0] + " " + e[1]).contains("dev.agentwarden.builtin.Builtins")
                    .noneMatch(c -> c.startsWith("java.util.regex."));
        }
    }

    @Test
    void dispatch_denyPatternBound_loadsRegex() throws Exception {
        Path manifest = Files.writeString(dir.resolve("m.yaml"), """
                schema_version: 1
                concerns:
                  no-rm:
                    script: builtin:deny-pattern
                    patterns: [{match: 'rm\\s+-rf', reason: no}]
                platforms:
                  claude:
                    pre_tool_use: [no-rm]
                native_event_aliases:
                  claude: {PreToolUse: pre_tool_use}
                """);

        dispatch(manifest, "PreToolUse", "{}");
        List<String> loaded = dispatch(manifest, "PreToolUse", "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}");

        assertThat(loaded).contains("java.util.regex.Pattern", "dev.agentwarden.builtin.DenyRules");
    }

    @Test
    void dispatch_defaultManifestSessionStartAndPrompt_loadNoInventoryClasses() throws Exception {
        dispatch(null, "Stop", "{}");
        for (String event : new String[] {"SessionStart", "UserPromptSubmit"}) {
            List<String> loaded = dispatch(null, event, "{\"session_id\":\"s\",\"source\":\"startup\",\"prompt\":\"p\"}");

            assertThat(loaded).as(event).contains("dev.agentwarden.dispatch.Dispatcher")
                    .noneMatch(c -> c.startsWith("dev.agentwarden.inventory."));
        }
    }

    @Test
    void dispatch_inventoryTurnsBound_loadsTheMcpClientOnlyForTheEventsThatSnapshot() throws Exception {
        Path manifest = Files.writeString(dir.resolve("inventory.yaml"), """
                schema_version: 1
                concerns:
                  inventory:
                    script: builtin:inventory-turns
                  note:
                    script: builtin:context-note
                    message: hello
                platforms:
                  claude:
                    user_prompt_submit: [inventory]
                    pre_tool_use: [note]
                native_event_aliases:
                  claude: {UserPromptSubmit: user_prompt_submit, PreToolUse: pre_tool_use}
                """);
        home = Files.createDirectories(dir.resolve("empty-home"));

        dispatch(manifest, "PreToolUse", "{}");
        List<String> tool = dispatch(manifest, "PreToolUse", "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}");
        List<String> prompt = dispatch(manifest, "UserPromptSubmit", "{\"session_id\":\"s\",\"prompt\":\"p\"}");

        assertThat(tool).contains("dev.agentwarden.builtin.Builtins").noneMatch(c -> c.startsWith("dev.agentwarden.inventory."));
        assertThat(prompt).contains("dev.agentwarden.inventory.TurnInventory", "dev.agentwarden.inventory.InventoryCache");
    }

    /** HOME of the dispatch JVMs when set (so no real user MCP configuration is read). */
    private Path home;

    /** The classes one {@code warden dispatch} JVM loaded, in order. */
    private List<String> dispatch(Path manifest, String nativeEvent, String payload) throws IOException, InterruptedException {
        Path log = Files.createTempFile(dir, "classes", ".log");
        Path project = Files.createDirectories(dir.resolve("project"));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load:file=" + log, "-cp", System.getProperty("java.class.path"), "dev.agentwarden.Main",
                "dispatch", "--host", "claude", "--native-event", nativeEvent, "--project-dir", project.toString()));
        if (manifest != null) {
            command.add("--manifest");
            command.add(manifest.toString());
        }
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("out-" + System.nanoTime()).toFile());
        pb.environment().put("WARDEN_CACHE_DIR", dir.resolve("cache").toString());
        pb.environment().put("WARDEN_RESIDENT", "off");
        if (home != null) {
            pb.environment().put("HOME", home.toString());
        }
        Process p = pb.start();
        p.getOutputStream().write(payload.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("dispatch finished").isTrue();
        assertThat(p.exitValue()).isZero();
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            int at = line.indexOf("[class,load] ");
            if (at >= 0) {
                String rest = line.substring(at + "[class,load] ".length());
                out.add(rest.split(" ", 2)[0]);
            }
        }
        return out;
    }
}
