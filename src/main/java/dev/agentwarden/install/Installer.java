package dev.agentwarden.install;

import dev.agentwarden.host.Host;
import dev.agentwarden.install.SettingsFile.SettingsException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * How {@code install} and {@code uninstall} edit one host's hook settings at one scope: the file,
 * the writer for that host's format, and the test that tells Warden's own entries from the user's.
 * Every edit leaves the user's entries byte for byte as written.
 */
public interface Installer {

    /**
     * One hook to install: a native event, the tool matcher ({@code "*"} for all, {@code null} for
     * none), and the resident's hook port when the event goes over HTTP, else 0 (a command hook),
     * with the id of the project the HTTP hook is bound to ({@code null} for a command hook).
     */
    record Binding(String nativeEvent, String matcher, int httpPort, String httpProject) {
        public Binding(String nativeEvent, String matcher) {
            this(nativeEvent, matcher, 0, null);
        }
    }

    /**
     * One of Warden's own entries as written: its native event, its tool matcher ({@code null} for
     * none), the launcher it runs ({@code null} for an HTTP hook, or where the installer cannot tell)
     * and what the host calls: the command line, or the URL of an HTTP hook.
     */
    record Entry(String nativeEvent, String matcher, String launcher, String target) {
        /** An entry known only by its event (an installer that does not describe its entries further). */
        public static Entry ofEvent(String nativeEvent) {
            return new Entry(nativeEvent, null, null, null);
        }

        /** {@code "http"} for an HTTP hook, else {@code "command"}. */
        public String transport() {
            return launcher == null && target != null && target.startsWith("http") ? "http" : "command";
        }
    }

    /** The settings file, for a project at {@code projectRoot} and the environment the host sees. */
    Path settingsFile(Path projectRoot, Map<String, String> env);

    /** The file as a person knows it ({@code ~/.claude/settings.json}). */
    String describe();

    /** {@code document} with Warden's previous entries replaced by one per binding. */
    byte[] install(byte[] document, HookLauncher launcher, List<Binding> bindings) throws SettingsException;

    /** {@code document} without Warden's entries. */
    byte[] uninstall(byte[] document);

    /** The native events Warden has entries for, in written order. */
    List<String> installedEvents(byte[] document);

    /**
     * Warden's own entries in {@code document}, in written order: what {@code doctor} compares with
     * what install would write now. An installer that does not override it describes each entry by
     * its event alone.
     */
    default List<Entry> entries(byte[] document) {
        java.util.List<Entry> out = new java.util.ArrayList<>();
        for (String event : installedEvents(document)) {
            out.add(Entry.ofEvent(event));
        }
        return out;
    }

    /** What an install changed, one line per Warden entry in {@code after} (and per entry it removed). */
    List<String> changeReport(byte[] before, byte[] after);

    /** Entries that run a Warden dispatch but are not exactly Warden's, which install and uninstall leave. */
    List<String> lookalikes(byte[] document);

    /**
     * Whether the file is Warden's alone (a plugin the host loads), written whole and removed whole
     * ({@link PluginFile}), rather than a settings document shared with the user ({@link SettingsFile}).
     */
    default boolean ownsWholeFile() {
        return false;
    }

    /** Whether the settings file is TOML text ({@link SettingsFile#toml}) rather than a JSON object. */
    default boolean writesToml() {
        return false;
    }

    /**
     * Whether this installer writes a hook for {@code nativeEvent}: a host that sends one event
     * under two names (Copilot's payload formats) gets it installed under one.
     */
    default boolean writes(String nativeEvent) {
        return true;
    }

    /**
     * Whether the host runs the command this installer writes through a POSIX shell even where the
     * host's record does not say so for every file ({@link Host#hookShell}): Copilot CLI's {@code bash}
     * field, Cursor's and Windsurf's {@code command}, Augment's project file. A project install writes the portable command ({@link HookLauncher#portable}) where
     * either holds.
     */
    default boolean commandRunsInAShell() {
        return false;
    }

    /**
     * Whether the host refuses the action when the entry written for {@code nativeEvent} exits
     * non-zero (other than its refusal code): Cursor's {@code failClosed}. The portable command's
     * {@code --if-missing warn} then exits 0, since its warning exit would be a refusal there.
     */
    default boolean failsClosedOnError(String nativeEvent) {
        return false;
    }

    /**
     * {@code document} telling the host to run managed hooks alone (user and project hooks ignored), for a
     * managed-scope installer whose host has that setting; {@code null} when it has none.
     *
     * @throws SettingsException when the setting is there with a value Warden would have to overrule
     */
    default byte[] managedHooksOnly(byte[] document) throws SettingsException {
        return null;
    }

    /** {@code document} without the setting {@link #managedHooksOnly} adds; {@code document} when it has none. */
    default byte[] withoutManagedHooksOnly(byte[] document) {
        return document;
    }

    /** {@code $HOME} first (as the host sees it), then the JVM's idea of the home directory. */
    static Path userHome(Map<String, String> env) {
        String home = env.get("HOME");
        return Path.of(home != null && !home.isEmpty() ? home : System.getProperty("user.home"));
    }
}
