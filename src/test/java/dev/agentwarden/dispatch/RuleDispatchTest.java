package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.decision.ChainResult;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.host.claude.ClaudeAdapter;
import dev.agentwarden.json.Json;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.verdict.Verdict;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rules ({@code builtin:rule}) through the dispatcher: every action, rewrites and their conflicts, failures. */
class RuleDispatchTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-01T00:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path root;

    private static final Manifest RULES = TestManifests.compile("""
            schema_version: 1
            concerns:
              no-force-push:
                script: builtin:rule
                when: 'tool.kind == "shell" && "git" in commands && "--force" in words'
                action: deny
                reason: "force push refused: {command}"
              ask-curl:
                script: builtin:rule
                when: '"curl" in commands'
                action: ask
                reason: "confirm network access by {tool.name}"
              warn-sudo:
                script: builtin:rule
                when: '"sudo" in commands'
                action: warn
                reason: "sudo used"
              halt-mkfs:
                script: builtin:rule
                when: 'commands.exists(c, c.startsWith("mkfs"))'
                action: halt
                reason: "formatting a disk stops the session"
              dry-run-npm:
                script: builtin:rule
                when: 'commands.size() == 1 && commands[0] == "npm" && words.size() > 1 && words[1] == "publish"'
                action: rewrite
                rewrite:
                  command: 'command + " --dry-run"'
                reason: "npm publish runs as a dry run"
              trash-rm:
                script: builtin:rule
                when: 'commands.size() == 1 && commands[0] == "rm"'
                action: rewrite
                rewrite:
                  command: '"trash " + words.filter(w, !w.startsWith("-")).slice(1, words.filter(w, !w.startsWith("-")).size()).join(" ")'
              second-rewrite:
                script: builtin:rule
                when: 'commands.size() == 1 && commands[0] == "npm"'
                action: rewrite
                rewrite:
                  command: '"echo second"'
              env-edit:
                script: builtin:rule
                when: 'tool.kind == "edit" && paths.exists(p, p.endsWith(".env"))'
                action: deny
                reason: "{paths} holds secrets"
              broken:
                script: builtin:rule
                when: 'tool.input.timeout > 5'
                action: deny
              broken-closed:
                script: builtin:rule
                fail_closed: true
                when: 'int(tool.input.limit) > 5'
                action: deny
              costly:
                script: builtin:rule
                fail_closed: true
                when: 'prompt.split("").exists(a, prompt.split("").exists(b, prompt.split("").exists(c, a == "~")))'
                action: deny
            platforms:
              claude:
                pre_tool_use: [no-force-push, ask-curl, warn-sudo, halt-mkfs, dry-run-npm, trash-rm, second-rewrite, env-edit]
                post_tool_use: [broken]
                permission_request: [broken-closed]
                user_prompt_submit: [costly]
            """);

    private ChainResult run(String nativeEvent, EventName event, String payload) {
        HookEvent e = TestManifests.claudeEvent(nativeEvent, event, payload, root.toString());
        return new Dispatcher(RULES, CLOCK, Map.of()).dispatch(e, Manifest.DEFAULT_ROLE);
    }

    private ChainResult bash(String command) {
        return run("PreToolUse", EventName.PRE_TOOL_USE, "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
                + "\"tool_input\":{\"command\":" + Json.write(command) + ",\"description\":\"d\"}}");
    }

    @Test
    void deny_reasonTemplate_namesTheCommand() {
        Verdict v = bash("git push --force origin main").verdict();
        assertThat(v.kind()).isEqualTo(Verdict.Kind.BLOCK);
        assertThat(v.reason()).isEqualTo("force push refused: git push --force origin main");
    }

    @Test
    void ask_warn_halt_eachAsWritten() {
        assertThat(bash("curl https://example.com").verdict().kind()).isEqualTo(Verdict.Kind.ASK);
        assertThat(bash("curl https://example.com").verdict().reason()).isEqualTo("confirm network access by Bash");
        Verdict warn = bash("sudo ls").verdict();
        assertThat(warn.kind()).isEqualTo(Verdict.Kind.WARN);
        assertThat(warn.context()).isEqualTo("sudo used");
        assertThat(bash("mkfs.ext4 /dev/sda1").verdict().kind()).isEqualTo(Verdict.Kind.HALT);
    }

    @Test
    void noMatch_allowsWithNothingToSay() {
        Verdict v = bash("ls -la").verdict();
        assertThat(v).isEqualTo(Verdict.NO_OPINION);
    }

    @Test
    void rewrite_replacesTheCommand_keepingTheOtherInputFields() {
        Verdict v = bash("rm -rf build dist").verdict();
        assertThat(v.kind()).isEqualTo(Verdict.Kind.ALLOW);
        assertThat(v.updatedInput()).isEqualTo(Map.of("command", "trash build dist", "description", "d"));
        assertThat(v.rewrittenBy()).isEqualTo("trash-rm");
    }

    @Test
    void twoRewrites_firstInChainOrderWins_andTheConflictIsANote() {
        ChainResult r = bash("npm publish");
        assertThat(r.verdict().updatedInput()).containsEntry("command", "npm publish --dry-run");
        assertThat(r.verdict().rewrittenBy()).isEqualTo("dry-run-npm");
        assertThat(r.outcomes()).filteredOn(o -> o.concern().equals("second-rewrite")).singleElement()
                .satisfies(o -> {
                    assertThat(o.updatedInput()).isNull();
                    assertThat(o.note()).contains("rewrite conflict").contains("dry-run-npm");
                });
    }

    @Test
    void rewrite_underARefusal_isDropped() {
        // sudo warns, the rewrite stands; a deny elsewhere in the chain would drop it
        Verdict v = bash("npm publish && git push --force").verdict();
        assertThat(v.kind()).isEqualTo(Verdict.Kind.BLOCK);
        assertThat(v.updatedInput()).isNull();
    }

    @Test
    void rewrite_onClaude_rendersUpdatedInputWithAllow() {
        HostResponse r = new ClaudeAdapter("claude").render("PreToolUse", bash("rm -rf build").verdict());
        Map<String, Object> specific = (Map<String, Object>) Json.parseObject(r.stdout()).get("hookSpecificOutput");
        assertThat(specific).containsEntry("permissionDecision", "allow");
        assertThat((Map<String, Object>) specific.get("updatedInput")).containsEntry("command", "trash build");
    }

    @Test
    void paths_areRelativeToTheProjectRoot() {
        Verdict v = run("PreToolUse", EventName.PRE_TOOL_USE, "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Write\","
                + "\"tool_input\":{\"file_path\":" + Json.write(root.resolve("conf/../app/.env").toString())
                + ",\"content\":\"x\"}}").verdict();
        assertThat(v.kind()).isEqualTo(Verdict.Kind.BLOCK);
        assertThat(v.reason()).isEqualTo("app/.env holds secrets");
    }

    @Test
    void evaluationError_failOpen_allowsWithALoudNote() {
        ChainResult r = run("PostToolUse", EventName.POST_TOOL_USE, "{\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Bash\","
                + "\"tool_input\":{\"command\":\"ls\"}}");
        assertThat(r.verdict().kind()).isEqualTo(Verdict.Kind.ALLOW);
        assertThat(r.outcomes().get(0).note()).contains("rule evaluation failed").contains("fail-open");
    }

    @Test
    void evaluationError_failClosed_refuses() {
        ChainResult r = run("PermissionRequest", EventName.PERMISSION_REQUEST, "{\"hook_event_name\":\"PermissionRequest\","
                + "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\",\"limit\":\"many\"}}");
        assertThat(r.verdict().kind()).isEqualTo(Verdict.Kind.BLOCK);
        assertThat(r.verdict().reason()).contains("broken-closed could not run").contains("rule evaluation failed");
    }

    @Test
    void costLimit_endsTheEvaluation_andTheFailModeDecides() {
        ChainResult cheap = run("UserPromptSubmit", EventName.USER_PROMPT_SUBMIT,
                "{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"hi\"}");
        assertThat(cheap.verdict().kind()).isEqualTo(Verdict.Kind.ALLOW);
        assertThat(cheap.outcomes().get(0).note()).isNull();

        ChainResult costly = run("UserPromptSubmit", EventName.USER_PROMPT_SUBMIT,
                "{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"" + "y".repeat(200) + "\"}");
        assertThat(costly.verdict().kind()).isEqualTo(Verdict.Kind.BLOCK);
        assertThat(costly.verdict().reason()).contains("costly could not run").contains("rule evaluation failed")
                .containsAnyOf("Iteration budget exceeded", "cost limit");
    }
}
