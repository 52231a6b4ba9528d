package dev.agentwarden.host;

import dev.agentwarden.event.ToolKind;
import dev.agentwarden.host.augment.AugmentHost;
import dev.agentwarden.host.claude.ClaudeHosts;
import dev.agentwarden.host.cline.ClineHost;
import dev.agentwarden.host.codex.CodexHost;
import dev.agentwarden.host.copilot.CopilotHost;
import dev.agentwarden.host.cursor.CursorHost;
import dev.agentwarden.host.droid.DroidHost;
import dev.agentwarden.host.gemini.GeminiHost;
import dev.agentwarden.host.kilo.KiloHost;
import dev.agentwarden.host.opencode.OpenCodeHost;
import dev.agentwarden.host.qwen.QwenHost;
import dev.agentwarden.host.windsurf.WindsurfHost;
import dev.agentwarden.text.NearMiss;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.RandomAccess;
import java.util.Set;
import java.util.TreeSet;

/**
 * The hosts Warden has an adapter for ({@link #ALL}), and the host ids a manifest may name ({@link #KNOWN}).
 *
 * <p>The registry is lazy: {@link #byId} builds only the record asked for (a dispatch loads its own
 * host's classes, not eleven others'), and {@link #ALL} builds each record on first access to it.
 */
public final class Hosts {
    private Hosts() {
    }

    /**
     * Every host's id, in the order commands list them: the one list of hosts. Each id is its host
     * class's compile-time constant, so reading this array builds no record; {@link #record} builds one.
     */
    private static final String[] IDS = {ClaudeHosts.CLAUDE_ID, ClaudeHosts.COWORK_ID, CodexHost.ID, CopilotHost.ID,
            ClineHost.ID, GeminiHost.ID, QwenHost.ID, CursorHost.ID, WindsurfHost.ID, AugmentHost.ID, OpenCodeHost.ID,
            KiloHost.ID, DroidHost.ID};

    /** The record of the host with this id, built on first use (only that host's classes load), or {@code null}. */
    private static Host record(String id) {
        switch (id) {
            case ClaudeHosts.CLAUDE_ID: return ClaudeHosts.CLAUDE;
            case ClaudeHosts.COWORK_ID: return ClaudeHosts.COWORK;
            case CodexHost.ID: return CodexHost.CODEX;
            case CopilotHost.ID: return CopilotHost.COPILOT;
            case ClineHost.ID: return ClineHost.CLINE;
            case GeminiHost.ID: return GeminiHost.GEMINI;
            case QwenHost.ID: return QwenHost.QWEN;
            case CursorHost.ID: return CursorHost.CURSOR;
            case WindsurfHost.ID: return WindsurfHost.WINDSURF;
            case AugmentHost.ID: return AugmentHost.AUGMENT;
            case OpenCodeHost.ID: return OpenCodeHost.OPENCODE;
            case KiloHost.ID: return KiloHost.KILO;
            case DroidHost.ID:
            case DroidHost.ALIAS: return DroidHost.DROID;
            default: return null;
        }
    }

    /** Every host Warden can install for and answer, in the order commands list them ({@link #IDS}). */
    public static final List<Host> ALL = new Registry();

    /** {@link #IDS} as records, each built when first read. */
    private static final class Registry extends AbstractList<Host> implements RandomAccess {
        @Override
        public Host get(int index) {
            return record(IDS[index]);
        }

        @Override
        public int size() {
            return IDS.length;
        }
    }

    /** The host assumed where a recorded session line names none ({@code warden test}, {@code warden replay}). */
    public static Host assumed() {
        return ClaudeHosts.CLAUDE;
    }

    /** The host whose recorded sessions ({@code examples/}) the demos replay. */
    public static Host demo() {
        return ClaudeHosts.CLAUDE;
    }

    /** The host whose payloads the resident's warm-up sends through the forwarded-event path. */
    public static Host warmup() {
        return ClaudeHosts.CLAUDE;
    }

    /**
     * Every host id the manifest accepts: agent-config's {@code KNOWN_PLATFORMS}, then the id of every
     * host in {@link #ALL} that agent-config lacks (codex, qwen, opencode, …; agent-config has no key
     * for Qwen Code, which Warden names {@code qwen}, its command's name).
     */
    public static final List<String> KNOWN = known(List.of(
            "claude", "cowork", "cursor", "cline", "windsurf", "gemini", "copilot", "augment"));

    /**
     * Every host's project-directory variables ({@link Host#projectDirVariables}), each once, in host
     * order: read at every dispatch, so kept here rather than gathered from every record
     * ({@code HostsTest} pins it to the records).
     */
    private static final List<String> PROJECT_DIR_VARIABLES = List.of("CLAUDE_PROJECT_DIR", "COPILOT_PROJECT_DIR",
            "GEMINI_PROJECT_DIR", "QWEN_PROJECT_DIR", "CURSOR_PROJECT_DIR", "AUGMENT_PROJECT_DIR", "FACTORY_PROJECT_DIR",
            "DROID_PROJECT_DIR");

    /** The host with this id, or {@code null} when Warden has no adapter for it; builds no other host's record. */
    public static Host byId(String id) {
        return id == null ? null : record(id);
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
        for (String id : IDS) {
            if (!out.contains(id)) {
                out.add(id);
            }
        }
        return List.copyOf(out);
    }

    /** The ids of {@link #ALL}. */
    public static List<String> ids() {
        return List.of(IDS);
    }

    /** Every host's project-directory variables, each once, in host order. */
    public static List<String> projectDirVariables() {
        return PROJECT_DIR_VARIABLES;
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

    /**
     * Other names users type for a host: its npm package's or product's name, each with the host id it
     * stands for ({@link #canonical}). Pairs: alias, id.
     */
    private static final String[] ALIASES = {
            "claude-code", ClaudeHosts.CLAUDE_ID,
            "copilot-cli", CopilotHost.ID,
            "gemini-cli", GeminiHost.ID,
            "qwen-code", QwenHost.ID,
            "kilo-code", KiloHost.ID,
            "kilocode", KiloHost.ID,
            "codex-cli", CodexHost.ID,
            "opencode-ai", OpenCodeHost.ID,
            "auggie", AugmentHost.ID,
            DroidHost.ALIAS, DroidHost.ID,
            "cursor-agent", CursorHost.ID};

    /**
     * The host id {@code name} stands for: an alias's id ({@code claude-code} is {@code claude}),
     * else {@code name} itself (a host id, an unknown name, or {@code null}). For every {@code --host}
     * a user types; a manifest names hosts by id only.
     */
    public static String canonical(String name) {
        if (name == null) {
            return null;
        }
        for (int i = 0; i < ALIASES.length; i += 2) {
            if (ALIASES[i].equals(name)) {
                return ALIASES[i + 1];
            }
        }
        return name;
    }

    /** Every alias {@link #canonical} resolves, in table order. */
    public static List<String> aliases() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < ALIASES.length; i += 2) {
            out.add(ALIASES[i]);
        }
        return out;
    }

    /**
     * {@code unknown host 'claud'; did you mean `claude`? Known hosts: …}, or {@code null} for a known host.
     * The hint is the nearest host id or alias, given as the id it stands for, so it is valid wherever a
     * host is named (an alias itself is answered with its id).
     */
    public static String unknown(String host) {
        if (KNOWN.contains(host) || DroidHost.ALIAS.equals(host)) {
            return null;
        }
        String ungoverned = UngovernedHosts.why(host);
        if (ungoverned != null) {
            return ungoverned;
        }
        List<String> names = new ArrayList<>(KNOWN);
        names.addAll(aliases());
        String near = host != null && !canonical(host).equals(host) ? host : NearMiss.closest(host, names);
        String hint = near == null ? "" : "; did you mean `" + canonical(near) + "`?";
        return "unknown host '" + host + "'" + (hint.isEmpty() ? "." : hint) + " Known hosts: " + String.join(", ", KNOWN) + ".";
    }
}
