package dev.agentwarden.host;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.ToolKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What dispatch, the launcher, lint and inventory know about one host, registered once in
 * {@link Hosts#ALL}: how to read its payloads and answer it, its events and tools, its own files. How
 * Warden's hooks get into the host's settings is {@code dev.agentwarden.install.HostSetup}, built only
 * where a command installs or checks them; nothing outside {@code dev.agentwarden.host} (and the hosts'
 * folders under {@code install}) names a host id.
 *
 * @param id                  the id manifests and {@code --host} use ({@code claude})
 * @param displayName         the host's name in messages ({@code Claude Code})
 * @param adapter             parses the host's payloads into the one event and renders the one
 *                            verdict; its {@link HostAdapter#capability} is the capability table
 * @param defaultAliases      every native event name the host sends, with its canonical event (the
 *                            default {@code native_event_aliases}; a manifest's add or override)
 * @param toolEvents          native events that carry a tool call (a hook on them takes a tool matcher)
 * @param tools               which native tool names are shells, subagent dispatchers, file tools, MCP
 * @param projectDirVariables environment variables through which the host names the project root
 * @param outputCapChars      longest string the host keeps in a hook's output without spilling or
 *                            clipping it; 0 for no known cap
 * @param training            representative payloads the start-up archive is trained on, or {@code null}
 * @param payloadTemplate     fills in what a policy-test case omits as the host would send it, or
 *                            {@code null} when no payload of the host was captured
 * @param ownFiles            the host's files, besides those its installers write, by which its hooks or
 *                            its trust in them could be changed ({@code protect-warden} refuses edits of them)
 * @param setupFiles          where the files lie that the host's installers write and its trust gate reads
 *                            ({@code protect-warden} refuses edits of them without building the host's setup)
 * @param inventoryFiles      the host's MCP server configurations and usage records, which inventory and
 *                            telemetry read, or {@code null} when Warden reads none of the host's files
 * @param launcher            how the launcher answers the host when Warden cannot run, and what a
 *                            dispatch's non-zero exit code becomes (generated into {@code bin/warden})
 */
public record Host(String id, String displayName, HostAdapter adapter, Map<String, EventName> defaultAliases,
                   Set<String> toolEvents, ToolNames tools, List<String> projectDirVariables, int outputCapChars,
                   TrainingPayloads training, PayloadTemplate payloadTemplate, List<OwnFile> ownFiles,
                   List<SetupFileLocation> setupFiles, InventoryFiles inventoryFiles, LauncherContract launcher) {

    /** A host with no payload template, no own files, no setup files, no inventory files, and the plain launcher contract. */
    public Host(String id, String displayName, HostAdapter adapter, Map<String, EventName> defaultAliases,
                Set<String> toolEvents, ToolNames tools, List<String> projectDirVariables, int outputCapChars,
                TrainingPayloads training) {
        this(id, displayName, adapter, defaultAliases, toolEvents, tools, projectDirVariables, outputCapChars, training,
                null, List.of(), List.of(), null, LauncherContract.PLAIN);
    }

    /** This host with {@code template} as its {@link #payloadTemplate}. */
    public Host with(PayloadTemplate template) {
        return new Host(id, displayName, adapter, defaultAliases, toolEvents, tools, projectDirVariables, outputCapChars,
                training, template, ownFiles, setupFiles, inventoryFiles, launcher);
    }

    /** This host with {@code files} as its {@link #ownFiles}. */
    public Host protecting(OwnFile... files) {
        return new Host(id, displayName, adapter, defaultAliases, toolEvents, tools, projectDirVariables, outputCapChars,
                training, payloadTemplate, List.of(files), setupFiles, inventoryFiles, launcher);
    }

    /** This host with {@code files} as its {@link #setupFiles}. */
    public Host settingUp(SetupFileLocation... files) {
        return new Host(id, displayName, adapter, defaultAliases, toolEvents, tools, projectDirVariables, outputCapChars,
                training, payloadTemplate, ownFiles, List.of(files), inventoryFiles, launcher);
    }

    /** This host with {@code files} as its {@link #inventoryFiles}. */
    public Host reading(InventoryFiles files) {
        return new Host(id, displayName, adapter, defaultAliases, toolEvents, tools, projectDirVariables, outputCapChars,
                training, payloadTemplate, ownFiles, setupFiles, files, launcher);
    }

    /** This host answered by the launcher per {@code contract} ({@link #launcher}). */
    public Host launching(LauncherContract contract) {
        return new Host(id, displayName, adapter, defaultAliases, toolEvents, tools, projectDirVariables, outputCapChars,
                training, payloadTemplate, ownFiles, setupFiles, inventoryFiles, contract);
    }

    /** How a person names the host's own file {@code target} (absolute, normalized), or {@code null} when it is none. */
    public String ownFile(Path target) {
        for (int i = 0; i < ownFiles.size(); i++) {
            if (ownFiles.get(i).matches(target)) {
                return ownFiles.get(i).what();
            }
        }
        return null;
    }

    /**
     * Whether {@code target} (absolute, normalized) is one of this host's {@link #setupFiles} where
     * {@code env} puts it: with {@code decidingTrust}, one its trust gate reads; without, one its installers write.
     */
    public boolean isSetupFile(Path target, Map<String, String> env, boolean decidingTrust) {
        for (int i = 0; i < setupFiles.size(); i++) {
            SetupFileLocation f = setupFiles.get(i);
            if (f.decidesTrust() == decidingTrust && f.matches(target, env)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Where a host's hook settings live: the project's (committed, shared by the team), the user's,
     * the project's local file that is not committed (Claude Code's {@code .claude/settings.local.json}),
     * or the machine's managed (policy) settings, which only root writes and which the host reads above
     * the user's and the project's.
     */
    public enum Scope {
        PROJECT, USER, LOCAL, MANAGED;

        /** {@code project}, {@code user}, {@code local} or {@code managed}. */
        public String wire() {
            return this == PROJECT ? "project" : this == USER ? "user" : this == LOCAL ? "local" : "managed";
        }

        /** The scope named {@code word}, or {@code null}. */
        public static Scope named(String word) {
            for (Scope s : values()) {
                if (s.wire().equals(word)) {
                    return s;
                }
            }
            return null;
        }
    }

    /** What the tool named {@code nativeToolName} does on this host, or {@code null} for no tool. */
    public ToolKind toolKind(String nativeToolName) {
        return tools.kindOf(nativeToolName);
    }

    /** Whether hooks on {@code nativeEvent} carry a tool matcher. */
    public boolean isToolEvent(String nativeEvent) {
        return toolEvents.contains(nativeEvent);
    }

    /** What this host can do with a verdict on a native event. */
    public HostAdapter.Capability capability(String nativeEvent) {
        return adapter.capability(nativeEvent);
    }

    /** Training workload for the class-data archive: native event and payload JSON, in dispatch order. */
    public interface TrainingPayloads {
        /**
         * @param trustedCwd a trusted project's directory, for events that take the trusted-manifest path
         * @param cwd        an untrusted scratch project's directory
         * @return pairs of {native event, payload JSON}
         */
        List<String[]> payloads(String trustedCwd, String cwd);

        /**
         * The event {@code bin/warden} dispatches to prove a freshly trained archive loads and answers:
         * {payload JSON, a fragment of the answer's stdout}; {@code null} for none.
         */
        default String[] probe() {
            return null;
        }
    }

    /**
     * The host's files that {@code warden inventory}, {@code inventory-turns} and {@code warden telemetry join}
     * read and never write. An implementation builds its lists when asked, never with the host's record, and is
     * the host's own class (already loaded with the record), so this interface is the one class a dispatch
     * loads for them ({@link McpConfigLocation} and {@link UsageFileLocation} load only where those read them).
     */
    public interface InventoryFiles {
        /** Where the host keeps its MCP server configurations, in the order they are read; empty for none. */
        List<McpConfigLocation> mcpConfigs();

        /** Where the host writes its usage records; empty for none Warden reads. */
        List<UsageFileLocation> usageFiles();

        /**
         * Where the host comes among the hosts whose MCP configurations are read (ascending): the order
         * {@code warden inventory} lists and reads them in.
         */
        int mcpListPosition();

        /** The host whose CLI this host runs, so whose files its sessions use, or {@code null} for its own. */
        default Host runsTheCliOf() {
            return null;
        }
    }
}
