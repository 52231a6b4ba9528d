package dev.agentwarden.install.opencode;

import dev.agentwarden.install.HookLauncher;
import dev.agentwarden.digest.Sha256;
import dev.agentwarden.host.opencode.OpenCodeHost;
import dev.agentwarden.install.HookCommand;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.SettingsFile.SettingsException;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Warden's bridge plugin ({@code warden-bridge.js}, a resource of the jar) as one host and scope
 * install it: a file of Warden's own in the host's plugin directory, written whole. Its first line
 * holds the digest of the rest, so that uninstall removes it only while it is exactly what install
 * wrote; a file edited by hand, or one Warden did not write, is the user's and stays.
 *
 * <p>A user's bridge runs this machine's {@code bin/warden} by absolute path. A project's bridge is
 * committed, so it names no path of this machine ({@link HookLauncher#portable}): it finds
 * {@code warden} on {@code PATH} at each callback, and where there is none answers per
 * {@code --if-missing} (under {@code block} it throws on {@code tool.execute.before} and
 * {@code chat.message} with what to install, which is how a plugin refuses).
 */
final class OpenCodePlugin implements Installer {
    /** The file name the bridge is written under, in the plugin directory. */
    public static final String FILE_NAME = OpenCodeHost.BRIDGE_FILE;

    private static final String HEADER = "// warden-bridge sha256:";
    private static final String BOUND_LINE = "const BOUND = new Set(";

    private final String hostId;
    private final String hostName;
    private final String relative;
    private final String described;
    private final boolean user;
    private final String configDirName;

    /**
     * @param hostId        the host id the bridge dispatches as ({@code opencode})
     * @param hostName      the host's name in the file's comment
     * @param relative      project scope: the plugin directory below the project ({@code .opencode/plugin});
     *                      user scope: below the host's global config directory ({@code plugin})
     * @param user          whether this is the user scope ({@code $XDG_CONFIG_HOME/<configDirName>/})
     * @param configDirName the host's directory under {@code $XDG_CONFIG_HOME} ({@code opencode})
     */
    OpenCodePlugin(String hostId, String hostName, String relative, boolean user, String configDirName) {
        this.hostId = hostId;
        this.hostName = hostName;
        this.relative = relative;
        this.user = user;
        this.configDirName = configDirName;
        this.described = (user ? "~/.config/" + configDirName + "/" : "") + relative + "/" + FILE_NAME;
    }

    @Override
    public boolean ownsWholeFile() {
        return true;
    }

    @Override
    public Path settingsFile(Path projectRoot, Map<String, String> env) {
        if (!user) {
            return projectRoot.resolve(relative).resolve(FILE_NAME);
        }
        String xdg = env.get("XDG_CONFIG_HOME");
        Path config = xdg != null && xdg.startsWith("/") ? Path.of(xdg) : Installer.userHome(env).resolve(".config");
        return config.resolve(configDirName).resolve(relative).resolve(FILE_NAME);
    }

    @Override
    public String describe() {
        return described;
    }

    @Override
    public byte[] install(byte[] document, HookLauncher launcher, List<Binding> bindings) throws SettingsException {
        if (document.length > 0 && !isOurs(document)) {
            ForeignPlugin.refuse(describe());
        }
        List<Object> events = new ArrayList<>();
        for (Binding b : bindings) {
            if (!events.contains(b.nativeEvent())) {
                events.add(b.nativeEvent());
            }
        }
        HookCommand.IfMissing missing = launcher.missing();
        String body = template()
                .replace("@@LAUNCHER@@", missing == null ? Json.write(launcher.launcher()) : "null")
                .replace("@@IF_MISSING@@", missing == null ? "null" : Json.write(missing.wire()))
                .replace("@@MISSING@@", Json.write(HookCommand.MISSING))
                .replace("@@HOST_JSON@@", Json.write(hostId))
                .replace("@@HOST_NAME@@", hostName)
                .replace("@@HOST@@", hostId)
                .replace("@@BOUND@@", Json.write(events));
        byte[] rest = body.getBytes(StandardCharsets.UTF_8);
        return (HEADER + Sha256.hex(rest) + "\n" + body).getBytes(StandardCharsets.UTF_8);
    }

    /** Nothing: the file is Warden's alone, and uninstall removes it whole. */
    @Override
    public byte[] uninstall(byte[] document) {
        return isOurs(document) ? new byte[0] : document;
    }

    @Override
    public List<String> installedEvents(byte[] document) {
        List<String> out = new ArrayList<>();
        if (!isOurs(document)) {
            return out;
        }
        String text = new String(document, StandardCharsets.UTF_8);
        int at = text.indexOf(BOUND_LINE);
        int end = at < 0 ? -1 : text.indexOf(");", at);
        if (end > 0 && Json.parse(text.substring(at + BOUND_LINE.length(), end)) instanceof List<?> events) {
            for (Object e : events) {
                out.add(String.valueOf(e));
            }
        }
        return out;
    }

    @Override
    public List<String> changeReport(byte[] before, byte[] after) {
        List<String> out = new ArrayList<>();
        List<String> was = installedEvents(before);
        for (String e : installedEvents(after)) {
            out.add((was.contains(e) ? "kept " : "added ") + e);
        }
        for (String e : was) {
            if (!installedEvents(after).contains(e)) {
                out.add("removed " + e);
            }
        }
        return out;
    }

    @Override
    public List<String> lookalikes(byte[] document) {
        return document.length == 0 || isOurs(document) ? List.of()
                : List.of(describe() + " (not the bridge as Warden wrote it)");
    }

    /** Whether {@code document} is a bridge exactly as an install wrote it (its digest line matches the rest). */
    static boolean isOurs(byte[] document) {
        String text = new String(document, StandardCharsets.UTF_8);
        int nl = text.indexOf('\n');
        if (!text.startsWith(HEADER) || nl < 0) {
            return false;
        }
        String digest = text.substring(HEADER.length(), nl);
        byte[] rest = text.substring(nl + 1).getBytes(StandardCharsets.UTF_8);
        return Sha256.isHex(digest) && digest.equals(Sha256.hex(rest));
    }

    private static String template() {
        try (InputStream in = OpenCodePlugin.class.getResourceAsStream(FILE_NAME)) {
            if (in == null) {
                throw new IllegalStateException("resource " + FILE_NAME + " missing from Warden's jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
