package dev.agentwarden.install.copilot;

import dev.agentwarden.install.HookLauncher;
import dev.agentwarden.install.Installer.Binding;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.SettingsFile;
import dev.agentwarden.install.SettingsFile.SettingsException;
import dev.agentwarden.install.claude.ClaudeSettings;
import dev.agentwarden.json.JsonSpans;
import dev.agentwarden.json.JsonSplice;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Edits a Copilot CLI hooks file ({@code {"version": 1, "hooks": {"<event>": [entry, …]}}}) as
 * text: adds Warden's entries and takes them out, every other byte as it was.
 *
 * <p>Warden's entry is recognised exactly: an object with exactly {@code type: "command"},
 * {@code bash: "<launcher> dispatch --host copilot --native-event <event>"} (the launcher an
 * absolute path ending in {@code /bin/warden}, quoted as {@link ClaudeSettings#command} quotes it,
 * the event the one the entry is listed under), {@code timeoutSec: 60} and, on tool events
 * narrowed to some tools, a string {@code matcher}. Copilot reads {@code matcher} as a regular
 * expression ({@code "*"} matches no tool at all in 1.0.102, measured), so "every tool" is an entry
 * without one. Anything else that runs a Warden dispatch is the user's: kept and
 * reported ({@link #lookalikes}).
 *
 * <p>An install into a document without {@code version} adds {@code "version": 1} first; a
 * {@code version} other than 1 is a format Warden does not know and is refused. Removing Warden's
 * last entry removes the event, then {@code hooks}, then a {@code version} left alone in the
 * document, so an install then uninstall gives back the bytes from before.
 */
final class CopilotHooks {
    /** {@code timeoutSec} of each entry: Copilot's default is 30, and Warden's own deadlines answer within 60. */
    static final long TIMEOUT_SEC = 60;

    private static final Set<String> HOST = Set.of("copilot");

    private CopilotHooks() {
    }

    static byte[] install(byte[] document, HookLauncher launcher, List<Binding> bindings) throws SettingsException {
        byte[] doc = uninstall(document);
        if (bindings.isEmpty()) {
            return doc;
        }
        JsonSpans.Value root = JsonSpans.parse(doc);
        JsonSpans.Member version = SettingsFile.onlyMember(root, "version", "");
        if (version == null) {
            doc = JsonSplice.appendMember(doc, root, "version", 1L);
        } else if (version.value().kind() != JsonSpans.Kind.NUMBER || !text(doc, version.value()).equals("1")) {
            throw new SettingsException("copilot_hooks_version", "\"version\" is " + text(doc, version.value())
                    + ", not 1: a hooks format Warden does not know. Fix or remove it, then run again. It was left unchanged.");
        }
        JsonSpans.Member hooks = SettingsFile.onlyMember(JsonSpans.parse(doc), "hooks", "");
        if (hooks == null) {
            Map<String, Object> all = new LinkedHashMap<>();
            for (Binding b : bindings) {
                all.put(b.nativeEvent(), List.of(entry(launcher, b)));
            }
            return JsonSplice.appendMember(doc, JsonSpans.parse(doc), "hooks", all);
        }
        if (hooks.value().kind() != JsonSpans.Kind.OBJECT) {
            throw new SettingsException("settings_hooks_not_object", "\"hooks\" is not an object of events; Warden will"
                    + " not replace it. Make it an object or remove it, then run again. It was left unchanged.");
        }
        for (Binding b : bindings) {
            JsonSpans.Value events = SettingsFile.onlyMember(JsonSpans.parse(doc), "hooks", "").value();
            JsonSpans.Member event = SettingsFile.onlyMember(events, b.nativeEvent(), "hooks.");
            if (event == null) {
                doc = JsonSplice.appendMember(doc, events, b.nativeEvent(), List.of(entry(launcher, b)));
            } else if (event.value().kind() != JsonSpans.Kind.ARRAY) {
                throw new SettingsException("settings_event_not_list", "hooks." + b.nativeEvent() + " is not a list of"
                        + " hook entries; Warden will not replace it. Make it a list ([...]) or remove it, then run again."
                        + " It was left unchanged.");
            } else {
                doc = JsonSplice.appendElement(doc, event.value(), entry(launcher, b));
            }
        }
        return doc;
    }

    static byte[] uninstall(byte[] document) {
        byte[] doc = document;
        for (byte[] next = removeOne(doc); next != null; next = removeOne(doc)) {
            doc = next;
        }
        return doc;
    }

    /** Warden's entries as written, in order. */
    static List<Installer.Entry> entries(byte[] document) {
        List<Installer.Entry> out = new ArrayList<>();
        for (JsonSpans.Member event : events(JsonSpans.parse(document))) {
            for (JsonSpans.Value e : event.value().elements()) {
                if (isWardens(document, e, event.key())) {
                    String bash = SettingsFile.stringMember(e, "bash");
                    out.add(new Installer.Entry(event.key(), SettingsFile.stringMember(e, "matcher"), launcherOf(bash), bash));
                }
            }
        }
        return out;
    }

    static List<String> installedEvents(byte[] document) {
        List<String> out = new ArrayList<>();
        for (Installer.Entry e : entries(document)) {
            if (!out.contains(e.nativeEvent())) {
                out.add(e.nativeEvent());
            }
        }
        return out;
    }

    /** Entries that run a Warden dispatch but are not exactly Warden's, as {@code hooks.<event>: <bash>}. */
    static List<String> lookalikes(byte[] document) {
        List<String> out = new ArrayList<>();
        for (JsonSpans.Member event : events(JsonSpans.parse(document))) {
            for (JsonSpans.Value e : event.value().elements()) {
                String bash = SettingsFile.stringMember(e, "bash");
                if (!isWardens(document, e, event.key()) && bash != null && bash.contains(" dispatch ")
                        && bash.contains(" --native-event ")) {
                    out.add("hooks." + event.key() + ": " + bash);
                }
            }
        }
        return out;
    }

    /** The launcher a Warden entry's command runs, unquoted. */
    private static String launcherOf(String command) {
        if (ClaudeSettings.portableMode(command) != null) {
            return null;
        }
        String quoted = command.substring(0, command.lastIndexOf(" dispatch --host "));
        return quoted.startsWith("'") ? quoted.substring(1, quoted.length() - 1).replace("'\\''", "'") : quoted;
    }

    private static Map<String, Object> entry(HookLauncher launcher, Binding b) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("type", "command");
        e.put("bash", ClaudeSettings.command(launcher, "copilot", b.nativeEvent()));
        e.put("timeoutSec", TIMEOUT_SEC);
        if (b.matcher() != null && !b.matcher().equals("*")) {
            e.put("matcher", b.matcher());
        }
        return e;
    }

    /** {@code doc} with its first Warden entry removed, and the containers it empties; {@code null} when none is left. */
    private static byte[] removeOne(byte[] doc) {
        JsonSpans.Value root = JsonSpans.parse(doc);
        List<JsonSpans.Member> top = root.members();
        for (int t = 0; t < top.size(); t++) {
            JsonSpans.Value hooks = top.get(t).value();
            if (!top.get(t).key().equals("hooks") || hooks.kind() != JsonSpans.Kind.OBJECT) {
                continue;
            }
            for (int ev = 0; ev < hooks.members().size(); ev++) {
                JsonSpans.Member event = hooks.members().get(ev);
                List<JsonSpans.Value> list = event.value().kind() == JsonSpans.Kind.ARRAY ? event.value().elements() : List.of();
                for (int i = 0; i < list.size(); i++) {
                    if (!isWardens(doc, list.get(i), event.key())) {
                        continue;
                    }
                    if (list.size() > 1) {
                        return JsonSplice.remove(doc, event.value(), i);
                    }
                    if (hooks.members().size() > 1) {
                        return JsonSplice.remove(doc, hooks, ev);
                    }
                    byte[] without = JsonSplice.remove(doc, root, t);
                    JsonSpans.Value rest = JsonSpans.parse(without);
                    if (rest.members().size() == 1 && rest.members().get(0).key().equals("version")) {
                        return JsonSplice.remove(without, rest, 0);
                    }
                    return without;
                }
            }
        }
        return null;
    }

    private static List<JsonSpans.Member> events(JsonSpans.Value root) {
        List<JsonSpans.Member> out = new ArrayList<>();
        for (JsonSpans.Member top : root.named("hooks")) {
            if (top.value().kind() == JsonSpans.Kind.OBJECT) {
                for (JsonSpans.Member event : top.value().members()) {
                    if (event.value().kind() == JsonSpans.Kind.ARRAY) {
                        out.add(event);
                    }
                }
            }
        }
        return out;
    }

    private static boolean isWardens(byte[] doc, JsonSpans.Value e, String event) {
        if (e.kind() != JsonSpans.Kind.OBJECT) {
            return false;
        }
        List<JsonSpans.Member> type = e.named("type");
        List<JsonSpans.Member> bash = e.named("bash");
        List<JsonSpans.Member> timeout = e.named("timeoutSec");
        List<JsonSpans.Member> matcher = e.named("matcher");
        return e.members().size() == 3 + matcher.size() && matcher.size() <= 1
                && (matcher.isEmpty() || matcher.get(0).value().kind() == JsonSpans.Kind.STRING)
                && type.size() == 1 && type.get(0).value().isString("command")
                && timeout.size() == 1 && timeout.get(0).value().kind() == JsonSpans.Kind.NUMBER
                && text(doc, timeout.get(0).value()).equals(Long.toString(TIMEOUT_SEC))
                && bash.size() == 1 && bash.get(0).value().kind() == JsonSpans.Kind.STRING
                && ClaudeSettings.isWardenCommand(bash.get(0).value().text(), event, HOST);
    }

    private static String text(byte[] doc, JsonSpans.Value v) {
        return new String(doc, v.start(), v.end() - v.start(), StandardCharsets.ISO_8859_1);
    }
}
