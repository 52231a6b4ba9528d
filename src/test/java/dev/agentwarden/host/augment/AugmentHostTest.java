package dev.agentwarden.host.augment;

import dev.agentwarden.install.HookLauncher;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.HostAdapter.Capability;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.augment.AugmentSetup;
import dev.agentwarden.json.Json;
import dev.agentwarden.verdict.Verdict;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Augment (auggie 0.36.0's shipped code): where it differs from Claude, and its strict settings file. */
class AugmentHostTest {
    private static final Host AUGMENT = Hosts.byId("augment");

    @Test
    void capabilityTable_isAugments() {
        // PreToolUse runs updatedInput beside permissionDecision allow (hosts.md, measured on 0.36.0)
        assertThat(AUGMENT.capability("PreToolUse")).isEqualTo(new Capability(true, false, true, true));
        assertThat(AUGMENT.capability("PostToolUse")).isEqualTo(new Capability(true, true, false));
        assertThat(AUGMENT.capability("Stop")).isEqualTo(new Capability(true, false, false));
        assertThat(AUGMENT.capability("PromptSubmit")).isEqualTo(new Capability(true, false, false));
        assertThat(AUGMENT.capability("SessionStart")).isEqualTo(new Capability(false, true, false));
        assertThat(AUGMENT.capability("SessionEnd")).isEqualTo(new Capability(false, false, false));
    }

    @Test
    void onlyAugmentsSevenEvents_areAliased_sinceAnUnknownOneInvalidatesItsHooks() {
        assertThat(AUGMENT.defaultAliases().keySet()).containsExactlyInAnyOrder("SessionStart", "SessionEnd",
                "PromptSubmit", "PreToolUse", "PostToolUse", "Notification", "Stop");
    }

    @Test
    void ask_onStop_isABlockLoudly() {
        HostResponse r = AUGMENT.adapter().render("Stop", new Verdict(Verdict.Kind.ASK, "sure?", null));
        assertThat(r.stdout()).contains("\"decision\":\"block\"");
        assertThat(r.stderr()).contains("ask rendered as a block on Stop");
    }

    @Test
    void block_onSessionEnd_isDowngradedToASystemMessageLoudly() {
        HostResponse r = AUGMENT.adapter().render("SessionEnd", Verdict.block("late"));
        assertThat(Json.parseObject(r.stdout())).containsKey("systemMessage");
        assertThat(r.stderr()).contains("block downgraded");
    }

    @Test
    void promptSubmit_readsUserPrompt_andTheSessionIsTheConversation() {
        Map<String, Object> p = Json.parseObject("{\"hook_event_name\":\"PromptSubmit\",\"conversation_id\":\"c9\","
                + "\"workspace_roots\":[\"/p\"],\"user_prompt\":\"hello\"}");
        HookEvent e = AUGMENT.adapter().normalize("PromptSubmit", EventName.USER_PROMPT_SUBMIT, p, new byte[0], "/p");
        assertThat(e.prompt()).isEqualTo("hello");
        assertThat(e.sessionId()).isEqualTo("c9");
        assertThat(e.cwd()).isEqualTo("/p");
    }

    /** Augment reads a handler's timeout in milliseconds: Claude's 60 would kill Warden after 60 ms. */
    @Test
    void install_writesTheTimeoutInMilliseconds_andNoStarMatcher() throws Exception {
        Installer installer = AugmentSetup.AUGMENT.installer(Host.Scope.PROJECT);
        assertThat(installer.settingsFile(Path.of("/p"), Map.of())).isEqualTo(Path.of("/p/.augment/settings.json"));
        assertThat(AugmentSetup.AUGMENT.installer(Host.Scope.USER).settingsFile(Path.of("/p"), Map.of("HOME", "/h")))
                .isEqualTo(Path.of("/h/.augment/settings.json"));
        byte[] once = installer.install("{}".getBytes(StandardCharsets.UTF_8), HookLauncher.plain("/opt/warden/bin/warden"),
                List.of(new Installer.Binding("PreToolUse", null)));
        String text = new String(once, StandardCharsets.UTF_8);
        assertThat(text).contains("\"timeout\": 60000").doesNotContain("\"matcher\"")
                .contains("dispatch --host augment --native-event PreToolUse");
        assertThat(installer.install(once, HookLauncher.plain("/opt/warden/bin/warden"), List.of(new Installer.Binding("PreToolUse", null))))
                .isEqualTo(once);
        assertThat(new String(installer.uninstall(once), StandardCharsets.UTF_8)).isEqualTo("{}");
    }
}
