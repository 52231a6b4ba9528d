package dev.agentwarden.host;

import dev.agentwarden.host.SettingsFile.SettingsException;
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
     * none), and the resident's hook port when the event goes over HTTP, else 0 (a command hook).
     */
    record Binding(String nativeEvent, String matcher, int httpPort) {
        public Binding(String nativeEvent, String matcher) {
            this(nativeEvent, matcher, 0);
        }
    }

    /** The settings file, for a project at {@code projectRoot} and the environment the host sees. */
    Path settingsFile(Path projectRoot, Map<String, String> env);

    /** The file as a person knows it ({@code ~/.claude/settings.json}). */
    String describe();

    /** {@code document} with Warden's previous entries replaced by one per binding. */
    byte[] install(byte[] document, String launcher, List<Binding> bindings) throws SettingsException;

    /** {@code document} without Warden's entries. */
    byte[] uninstall(byte[] document);

    /** The native events Warden has entries for, in written order. */
    List<String> installedEvents(byte[] document);

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

    /** {@code $HOME} first (as the host sees it), then the JVM's idea of the home directory. */
    static Path userHome(Map<String, String> env) {
        String home = env.get("HOME");
        return Path.of(home != null && !home.isEmpty() ? home : System.getProperty("user.home"));
    }
}
