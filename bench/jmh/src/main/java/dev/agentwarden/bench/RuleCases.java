package dev.agentwarden.bench;

import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.concern.Posture;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.claude.ClaudeAdapter;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The rules measured, one per shape, and the event they are measured on: the captured Claude Code
 * PreToolUse Bash payload ({@code bench/pretooluse-bash.json}, {@code echo hello}), read from the
 * repository root the runner starts in.
 */
public enum RuleCases {
    /** Fires (a warning) on the payload. */
    FIELD("tool.name == \"Bash\"", "warn", null),
    /** Does not fire: no {@code git} in the parsed commands. */
    MEMBERSHIP("\"git\" in commands && \"--force\" in words", "deny", null),
    /** Does not fire: one RE2 match per word of the parsed command. */
    REGEX("words.exists(w, w.matches(\"^--(force|no-verify)$\"))", "deny", null),
    /** Fires: the condition, then the rewrite expression. */
    REWRITE("tool.kind == \"shell\"", "rewrite", "command + \" --dry-run\"");

    static final Path PAYLOAD = Path.of("bench", "pretooluse-bash.json");

    final String when;
    final String action;
    final String rewrite;

    RuleCases(String when, String action, String rewrite) {
        this.when = when;
        this.action = action;
        this.rewrite = rewrite;
    }

    /** The concern's settings as a manifest gives them to {@code builtin:rule}. */
    Map<String, Object> settings() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("when", when);
        s.put("action", action);
        if (rewrite != null) {
            s.put("rewrite", Map.of("command", rewrite));
        }
        return s;
    }

    ConcernSpec spec() {
        return new ConcernSpec("bench-rule", "builtin:rule", List.of(), false, Posture.BLOCKING, Set.of(),
                ConcernSpec.DEFAULT_TIMEOUT_MS, false, 0, settings());
    }

    /** The same rule as a project manifest binds it: the shipped default plus this rule on pre_tool_use. */
    String manifest() {
        StringBuilder m = new StringBuilder()
                .append("schema_version: 1\nextends: default\nconcerns:\n  bench-rule:\n    script: builtin:rule\n")
                .append("    when: '").append(when).append("'\n")
                .append("    action: ").append(action).append('\n')
                .append("    reason: \"bench rule: {command}\"\n");
        if (rewrite != null) {
            m.append("    rewrite:\n      command: '").append(rewrite).append("'\n");
        }
        return m.append("platforms:\n  claude:\n    pre_tool_use: [bench-rule]\n").toString();
    }

    /** Whether the rule fires on the payload ({@code echo hello}). */
    boolean firesOnPayload() {
        return this == FIELD || this == REWRITE;
    }

    /** Removes a scratch directory a benchmark made. */
    static void delete(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }

    static byte[] payload() throws IOException {
        return Files.readAllBytes(PAYLOAD);
    }

    /** The payload normalized as the Claude Code adapter does it, in {@code project}. */
    static HookEvent event(Path project) throws IOException {
        byte[] payload = payload();
        Map<String, Object> fields = Json.parseObject(new String(payload, StandardCharsets.UTF_8));
        return new ClaudeAdapter("claude").normalize("PreToolUse", EventName.PRE_TOOL_USE, fields, payload,
                project.toString());
    }
}
