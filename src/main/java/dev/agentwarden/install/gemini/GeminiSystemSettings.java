package dev.agentwarden.install.gemini;

import dev.agentwarden.install.HookLauncher;
import dev.agentwarden.host.gemini.GeminiHost;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.SettingsFile.SettingsException;
import dev.agentwarden.install.claude.ClaudeHooksFile;
import dev.agentwarden.install.claude.ClaudeSettings;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonSpans;
import dev.agentwarden.json.JsonSplice;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Gemini CLI's system settings on Linux, {@code /etc/gemini-cli/settings.json}: the same {@code hooks} shape as the
 * user's settings (edited by {@link ClaudeHooksFile}). Gemini 0.61.0 merges system settings last, so they override
 * user and project ones, and concatenates every layer's hooks (measured; docs/managed-install.md). A project's
 * {@code "hooksConfig": {"enabled": false}} turns every hook off unless the system file says {@code true}, so install
 * pins {@code hooksConfig.enabled: true} ({@link #pin}); an administrator's {@code false} is refused, not overruled.
 */
final class GeminiSystemSettings implements Installer {
    /** Where Gemini CLI reads system settings on Linux (unless {@code GEMINI_CLI_SYSTEM_SETTINGS_PATH} moves it). */
    static final Path FILE = Path.of("/etc/gemini-cli/settings.json");

    static final String CONFIG = "hooksConfig";
    static final String ENABLED = "enabled";

    private final ClaudeHooksFile format = new ClaudeHooksFile(GeminiHost.ID, FILE.toString(), ".gemini", "settings.json",
            true, null);

    @Override
    public Path settingsFile(Path projectRoot, Map<String, String> env) {
        return FILE;
    }

    @Override
    public String describe() {
        return FILE.toString();
    }

    /**
     * Warden's hooks in, each named {@code warden-} and this machine's 16 hex digits ({@link #machineName}):
     * Gemini skips a hook whose name any settings layer lists in {@code hooksConfig.disabled}, and those lists
     * add up across layers, so a hook named plain {@code warden} is one a committed project could switch off.
     */
    @Override
    public byte[] install(byte[] document, HookLauncher launcher, List<Binding> bindings) throws SettingsException {
        String name = machineName(document);
        return renamed(pin(format.install(document, launcher, bindings)), name);
    }

    /** The per-machine name Warden's hooks already carry in {@code document}, else a new random one. */
    static String machineName(byte[] document) {
        for (String written : wardenNames(document)) {
            if (!written.equals(handler().name())) {
                return written;
            }
        }
        byte[] id = new byte[ClaudeSettings.Handler.MACHINE_ID_DIGITS / 2];
        new SecureRandom().nextBytes(id);
        return handler().name() + "-" + HexFormat.of().formatHex(id);
    }

    /** The names of Warden's handlers in {@code document}, in written order. */
    static List<String> wardenNames(byte[] document) {
        List<String> out = new ArrayList<>();
        for (JsonSpans.Value name : wardenNameValues(document)) {
            out.add(name.text());
        }
        return out;
    }

    /** {@code document} with every Warden handler's {@code name} set to {@code name}. */
    static byte[] renamed(byte[] document, String name) {
        List<JsonSpans.Value> values = wardenNameValues(document);
        byte[] quoted = Json.write(name).getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(document.length + values.size() * quoted.length);
        int at = 0;
        for (JsonSpans.Value v : values) {
            out.write(document, at, v.start() - at);
            out.write(quoted, 0, quoted.length);
            at = v.end();
        }
        out.write(document, at, document.length - at);
        return out.toByteArray();
    }

    /** The {@code name} values of Warden's handlers ({@link #entries} recognises them), in document order. */
    private static List<JsonSpans.Value> wardenNameValues(byte[] document) {
        List<JsonSpans.Value> out = new ArrayList<>();
        JsonSpans.Value root;
        try {
            root = JsonSpans.parse(document);
        } catch (RuntimeException e) {
            return out;
        }
        if (root.kind() != JsonSpans.Kind.OBJECT) {
            return out;
        }
        for (JsonSpans.Member hooks : root.named("hooks")) {
            if (hooks.value().kind() != JsonSpans.Kind.OBJECT) {
                continue;
            }
            for (JsonSpans.Member event : hooks.value().members()) {
                for (JsonSpans.Value group : event.value().elements()) {
                    if (group.kind() != JsonSpans.Kind.OBJECT) {
                        continue;
                    }
                    for (JsonSpans.Member list : group.named("hooks")) {
                        for (JsonSpans.Value handler : list.value().elements()) {
                            if (handler.kind() != JsonSpans.Kind.OBJECT || !isWardens(handler)) {
                                continue;
                            }
                            for (JsonSpans.Member n : handler.named("name")) {
                                if (n.value().kind() == JsonSpans.Kind.STRING && handler().names(n.value().text())) {
                                    out.add(n.value());
                                }
                            }
                        }
                    }
                }
            }
        }
        return out;
    }

    /** Warden's Gemini handler shape; read in methods only, so the hook path that loads this class loads no settings editor. */
    private static ClaudeSettings.Handler handler() {
        return ClaudeSettings.Handler.GEMINI;
    }

    /**
     * A handler exactly as Warden writes it: {@code name}, {@code type: "command"}, a command running Warden for
     * Gemini and Warden's {@code timeout}, nothing else; an administrator's handler with more or other keys is
     * never renamed.
     */
    private static boolean isWardens(JsonSpans.Value handler) {
        if (handler.members().size() != 4 || handler.named("type").size() != 1
                || !handler.named("type").get(0).value().isString("command")) {
            return false;
        }
        List<JsonSpans.Member> timeout = handler.named("timeout");
        if (timeout.size() != 1 || timeout.get(0).value().kind() != JsonSpans.Kind.NUMBER) {
            return false;
        }
        List<JsonSpans.Member> command = handler.named("command");
        String text = command.size() == 1 ? command.get(0).value().text() : null;
        return text != null && text.contains(" dispatch --host " + GeminiHost.ID + " ");
    }

    /** Warden's hooks out, and the pin with them when it is exactly what install adds ({@link #unpin}). */
    @Override
    public byte[] uninstall(byte[] document) {
        byte[] unhooked = format.uninstall(document);
        return unhooked == document ? document : unpin(unhooked);
    }

    @Override
    public List<String> installedEvents(byte[] document) {
        return format.installedEvents(document);
    }

    @Override
    public List<Installer.Entry> entries(byte[] document) {
        return format.entries(document);
    }

    @Override
    public List<String> changeReport(byte[] before, byte[] after) {
        return format.changeReport(before, after);
    }

    @Override
    public List<String> lookalikes(byte[] document) {
        return format.lookalikes(document);
    }

    /**
     * {@code document} with {@code "hooksConfig": {"enabled": true}}: added whole when there is no {@code hooksConfig},
     * {@code enabled} added last when it has none, unchanged when it is {@code true}.
     *
     * @throws SettingsException when {@code enabled} is anything else, or {@code hooksConfig} is not one object
     */
    static byte[] pin(byte[] document) throws SettingsException {
        JsonSpans.Value root = JsonSpans.parse(document);
        List<JsonSpans.Member> found = root.named(CONFIG);
        if (found.isEmpty()) {
            return JsonSplice.appendMember(document, root, CONFIG, Map.of(ENABLED, Boolean.TRUE));
        }
        if (found.size() > 1 || found.get(0).value().kind() != JsonSpans.Kind.OBJECT) {
            throw refused("\"" + CONFIG + "\" is not one object");
        }
        JsonSpans.Value config = found.get(0).value();
        List<JsonSpans.Member> enabled = config.named(ENABLED);
        if (enabled.isEmpty()) {
            return JsonSplice.appendMember(document, config, ENABLED, Boolean.TRUE);
        }
        if (enabled.size() == 1 && isTrue(document, enabled.get(0).value())) {
            return document;
        }
        throw refused("\"" + CONFIG + "\".\"" + ENABLED + "\" is set to something other than one true, so Gemini would"
                + " run no hook at all");
    }

    /**
     * {@code document} without the pin as install adds it: a {@code hooksConfig} holding only {@code enabled: true}
     * is removed whole, else an {@code enabled: true} that is its last member is removed. (An administrator's own
     * {@code enabled: true} in that place looks the same and goes too; {@code true} is Gemini's default, so nothing
     * it does changes.)
     */
    static byte[] unpin(byte[] document) {
        JsonSpans.Value root = JsonSpans.parse(document);
        List<JsonSpans.Member> members = root.members();
        for (int i = 0; i < members.size(); i++) {
            JsonSpans.Value config = members.get(i).value();
            if (!members.get(i).key().equals(CONFIG) || config.kind() != JsonSpans.Kind.OBJECT) {
                continue;
            }
            List<JsonSpans.Member> inner = config.members();
            if (inner.isEmpty() || !inner.get(inner.size() - 1).key().equals(ENABLED)
                    || !isTrue(document, inner.get(inner.size() - 1).value()) || config.named(ENABLED).size() != 1) {
                return document;
            }
            return inner.size() == 1 ? JsonSplice.remove(document, root, i)
                    : JsonSplice.remove(document, config, inner.size() - 1);
        }
        return document;
    }

    private static SettingsException refused(String what) {
        return new SettingsException("settings_managed_hooks_config", what + " in " + FILE
                + "; change it by hand. The file was left unchanged.");
    }

    private static boolean isTrue(byte[] document, JsonSpans.Value v) {
        return v.kind() == JsonSpans.Kind.LITERAL && v.end() - v.start() == 4
                && new String(document, v.start(), 4, StandardCharsets.US_ASCII).equals("true");
    }
}
