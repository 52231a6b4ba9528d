package dev.agentwarden.host;

import dev.agentwarden.event.ToolKind;
import dev.agentwarden.host.augment.AugmentHost;
import dev.agentwarden.host.claude.ClaudeHosts;
import dev.agentwarden.host.cline.ClineHost;
import dev.agentwarden.host.codex.CodexHost;
import dev.agentwarden.host.copilot.CopilotHost;
import dev.agentwarden.host.cursor.CursorHost;
import dev.agentwarden.host.gemini.GeminiHost;
import dev.agentwarden.host.kilo.KiloHost;
import dev.agentwarden.host.opencode.OpenCodeHost;
import dev.agentwarden.host.qwen.QwenHost;
import dev.agentwarden.host.windsurf.WindsurfHost;
import dev.agentwarden.text.NearMiss;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** The hosts Warden has an adapter for ({@link #ALL}), and the host ids a manifest may name ({@link #KNOWN}). */
public final class Hosts {
    private Hosts() {
    }

    /** Every host Warden can install for and answer, in the order commands list them. */
    public static final List<Host> ALL = List.of(ClaudeHosts.CLAUDE, ClaudeHosts.COWORK, CodexHost.CODEX,
            CopilotHost.COPILOT, ClineHost.CLINE, GeminiHost.GEMINI, QwenHost.QWEN, CursorHost.CURSOR,
            WindsurfHost.WINDSURF, AugmentHost.AUGMENT, OpenCodeHost.OPENCODE, KiloHost.KILO);

    /** The host assumed where a recorded session line names none ({@code warden test}, {@code warden replay}). */
    public static final Host ASSUMED = ClaudeHosts.CLAUDE;

    /** The host whose recorded sessions ({@code examples/}) the demos replay. */
    public static final Host DEMO = ClaudeHosts.CLAUDE;

    /**
     * Every host id the manifest accepts: agent-config's {@code KNOWN_PLATFORMS}, then the id of every
     * host in {@link #ALL} that agent-config lacks (codex, qwen, opencode, …; agent-config has no key
     * for Qwen Code, which Warden names {@code qwen}, its command's name).
     */
    public static final List<String> KNOWN = known(List.of(
            "claude", "cowork", "cursor", "cline", "windsurf", "gemini", "copilot", "augment"));

    /** The host with this id, or {@code null} when Warden has no adapter for it. */
    public static Host byId(String id) {
        for (int i = 0; i < ALL.size(); i++) {
            if (ALL.get(i).id().equals(id)) {
                return ALL.get(i);
            }
        }
        return null;
    }

    /**
     * Whether {@code install} writes a hook for {@code nativeEvent} of {@code host} only when the
     * manifest names the event in its own aliases: events older versions of the host refuse.
     */
    public static boolean installedOnlyWhenNamed(String host, String nativeEvent) {
        return (host.equals(ClaudeHosts.CLAUDE.id()) || host.equals(ClaudeHosts.COWORK.id()))
                && ClaudeHosts.SINCE_2_1_332.contains(nativeEvent);
    }

    private static List<String> known(List<String> agentConfigPlatforms) {
        List<String> out = new ArrayList<>(agentConfigPlatforms);
        for (int i = 0; i < ALL.size(); i++) {
            if (!out.contains(ALL.get(i).id())) {
                out.add(ALL.get(i).id());
            }
        }
        return List.copyOf(out);
    }

    /** The ids of {@link #ALL}. */
    public static List<String> ids() {
        List<String> out = new ArrayList<>(ALL.size());
        for (Host h : ALL) {
            out.add(h.id());
        }
        return out;
    }

    /** Every host's project-directory variables, each once, in host order. */
    public static List<String> projectDirVariables() {
        List<String> known = projectDirVariables;
        if (known == null) {
            known = Collections.unmodifiableList(collectProjectDirVariables());
            projectDirVariables = known;
        }
        return known;
    }

    /** {@link #projectDirVariables()}, collected once: the hosts are fixed. */
    private static volatile List<String> projectDirVariables;

    private static List<String> collectProjectDirVariables() {
        List<String> out = new ArrayList<>();
        for (Host h : ALL) {
            for (String v : h.projectDirVariables()) {
                if (!out.contains(v)) {
                    out.add(v);
                }
            }
        }
        return out;
    }

    /**
     * Every host's native tool names of the given kinds, each once: host by host in {@link #ALL}
     * order, each host's names sorted, so the list (and the default manifest built from it) is the
     * same in every JVM.
     */
    public static List<String> toolNames(ToolKind... kinds) {
        List<String> out = new ArrayList<>();
        for (Host h : ALL) {
            TreeSet<String> names = new TreeSet<>();
            for (ToolKind kind : kinds) {
                names.addAll(namesOf(h.tools(), kind));
            }
            for (String name : names) {
                if (!out.contains(name)) {
                    out.add(name);
                }
            }
        }
        return out;
    }

    private static Set<String> namesOf(ToolNames tools, ToolKind kind) {
        if (kind == ToolKind.SHELL) {
            return tools.shell();
        }
        if (kind == ToolKind.SUBAGENT_DISPATCH) {
            return tools.subagentDispatch();
        }
        if (kind == ToolKind.FILE_EDIT) {
            return tools.fileEdit();
        }
        if (kind == ToolKind.FILE_READ) {
            return tools.fileRead();
        }
        throw new IllegalArgumentException(kind + " has no fixed list of tool names");
    }

    /** The largest output cap of any host (0 when none is known): the most a setting may ask to emit. */
    public static int largestOutputCap() {
        int most = 0;
        for (Host h : ALL) {
            most = Math.max(most, h.outputCapChars());
        }
        return most;
    }

    /** {@code unknown host 'claud'; did you mean `claude`? Known hosts: …}, or {@code null} for a known host. */
    public static String unknown(String host) {
        if (KNOWN.contains(host)) {
            return null;
        }
        String hint = NearMiss.hint(host, KNOWN);
        return "unknown host '" + host + "'" + (hint.isEmpty() ? "." : hint) + " Known hosts: " + String.join(", ", KNOWN) + ".";
    }
}
