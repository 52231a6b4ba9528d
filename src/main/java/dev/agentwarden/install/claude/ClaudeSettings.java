package dev.agentwarden.install.claude;

import dev.agentwarden.install.HookLauncher;
import dev.agentwarden.install.HookCommand;
import dev.agentwarden.install.Installer.Binding;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.SettingsFile;
import dev.agentwarden.install.SettingsFile.SettingsException;
import dev.agentwarden.json.JsonSpans;
import dev.agentwarden.json.JsonSplice;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Edits the {@code hooks} section of a Claude Code {@code settings.json} (and of Codex's
 * {@code hooks.json}, the same shape) as text: adds Warden's hook entries and takes them out,
 * leaving every other byte as it was.
 *
 * <p>Warden's own entry is recognised exactly, never by resemblance: a handler with exactly the
 * keys {@code type: "command"}, {@code command} and {@code timeout: 60} (for Gemini CLI, which reads
 * the same nested shape, {@code name: "warden"} too and {@code timeout: 60000}, in milliseconds:
 * {@link Handler}), whose command is
 * {@code <launcher> dispatch --host <host> --native-event <Event>} where the launcher is an
 * absolute path ending in {@code /bin/warden}, quoted as {@link #command} quotes it, the host is
 * one that shares this file ({@link #hostsSharing}), and the event is the one the entry is listed
 * under. Any launcher path is accepted so that an install from a moved or re-cloned Warden replaces
 * the entries of the old one instead of leaving hooks that run a missing program. Claude Code
 * rejects unknown keys in hook entries, so the entry itself is the mark. An entry that only looks
 * like Warden's (an environment prefix, extra arguments or keys) is the user's: it is kept and
 * reported ({@link #lookalikes}).
 *
 * <p>Under {@code install --transport http}, an event's entry may instead be the HTTP handler
 * {@link ClaudeHttpHooks} writes, recognised just as exactly (its five keys, a loopback URL for that
 * host and event, the token header and its one allowed variable).
 *
 * <p>Removing a handler removes its group when the group holds nothing else, the event when its
 * list holds nothing else, and {@code hooks} when it holds nothing else; so an empty list or
 * {@code hooks} object that Warden filled is gone again after uninstall.
 */
public final class ClaudeSettings {
    /** Hook timeout written into each entry, in seconds (Claude's own default is 600). */
    public static final long HOOK_TIMEOUT_SECONDS = 60;

    /** The same, in the milliseconds Augment reads a handler's {@code timeout} in. */
    public static final long AUGMENT_HOOK_TIMEOUT_MILLIS = HOOK_TIMEOUT_SECONDS * 1000;

    /**
     * The keys besides {@code type} and {@code command} that Warden's handler has in one host's file.
     *
     * @param name    the {@code name} written (Gemini: its hook fingerprints and {@code hooksConfig.disabled}
     *                go by it), or {@code null} for none
     * @param timeout the {@code timeout} written, in the host's unit
     */
    public record Handler(String name, long timeout) {
        /** Claude Code's, Cowork's and Codex's handler: a timeout in seconds, no name. */
        public static final Handler CLAUDE = new Handler(null, HOOK_TIMEOUT_SECONDS);
        /** Gemini CLI's: named {@code warden}, the same 60 s in milliseconds. */
        public static final Handler GEMINI = new Handler("warden", HOOK_TIMEOUT_SECONDS * 1000);

        /** Augment's: no name, the same 60 s in the milliseconds Augment reads. */
        public static final Handler AUGMENT = new Handler(null, AUGMENT_HOOK_TIMEOUT_MILLIS);

        /** The handler written into {@code host}'s file. */
        public static Handler forHost(String host) {
            return host.equals("gemini") ? GEMINI : host.equals("augment") ? AUGMENT : CLAUDE;
        }

        int keys() {
            return name == null ? 3 : 4;
        }

        /**
         * Whether {@code written} is this handler's name: the name itself, or the name, a dash and 16
         * lower-case hex digits, the per-machine name a managed install writes (Gemini:
         * {@code GeminiSystemSettings}) so that no committed file can name it in {@code hooksConfig.disabled}.
         */
        public boolean names(String written) {
            if (name == null || written == null) {
                return false;
            }
            if (written.equals(name)) {
                return true;
            }
            if (written.length() != name.length() + 1 + MACHINE_ID_DIGITS || !written.startsWith(name)
                    || written.charAt(name.length()) != '-') {
                return false;
            }
            for (int i = name.length() + 1; i < written.length(); i++) {
                char c = written.charAt(i);
                if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
                    return false;
                }
            }
            return true;
        }

        /** The hex digits of a per-machine handler name ({@link #names}). */
        public static final int MACHINE_ID_DIGITS = 16;
    }

    private static final String DISPATCH = " dispatch --host ";
    private static final String NATIVE_EVENT = " --native-event ";
    private static final String LAUNCHER_SUFFIX = "/bin/warden";

    private ClaudeSettings() {
    }

    /** The {@code timeout} Warden writes for {@code host}'s handlers, in the unit that host reads. */
    public static long timeoutFor(String host) {
        return host.equals("augment") ? AUGMENT_HOOK_TIMEOUT_MILLIS : HOOK_TIMEOUT_SECONDS;
    }

    /** The command line the host runs for one event. */
    public static String command(HookLauncher launcher, String host, String nativeEvent) {
        return HookCommand.command(launcher, DISPATCH + host + NATIVE_EVENT + nativeEvent);
    }

    /**
     * The hosts whose entries live in the same file as {@code host}'s: Claude Code and Cowork share
     * user settings; every other Claude-shaped host (Codex, Qwen Code) has its own file.
     */
    public static Set<String> hostsSharing(String host) {
        return host.equals("claude") || host.equals("cowork") ? Set.of("claude", "cowork") : Set.of(host);
    }

    /**
     * Whether {@code command}, listed under {@code nativeEvent}, is exactly a command Warden writes
     * for one of {@code hosts}.
     */
    public static boolean isWardenCommand(String command, String nativeEvent, Set<String> hosts) {
        for (String host : hosts) {
            String hostTail = DISPATCH + host + NATIVE_EVENT + nativeEvent;
            if (HookCommand.fastParts(command, hostTail) != null || HookCommand.portableMode(command, hostTail) != null) {
                return true;
            }
        }
        String tail = NATIVE_EVENT + nativeEvent;
        if (!command.endsWith(tail)) {
            return false;
        }
        String head = command.substring(0, command.length() - tail.length());
        int dispatch = head.lastIndexOf(DISPATCH);
        if (dispatch < 0 || !hosts.contains(head.substring(dispatch + DISPATCH.length()))) {
            return false;
        }
        String quoted = head.substring(0, dispatch);
        String launcher = quoted.startsWith("'") && quoted.endsWith("'") && quoted.length() >= 2
                ? quoted.substring(1, quoted.length() - 1).replace("'\\''", "'") : quoted;
        return launcher.startsWith("/") && launcher.endsWith(LAUNCHER_SUFFIX) && shellQuote(launcher).equals(quoted);
    }

    /**
     * {@code document} with Warden's previous entries removed and one entry per binding added at the
     * end of its event's list. Idempotent; nothing else changes.
     *
     * @throws SettingsException when {@code hooks}, or a bound event's entry, is not of the shape
     *                           Warden can add to (or is named twice), since adding would mean replacing it
     */
    public static byte[] install(byte[] document, HookLauncher launcher, String host, List<Binding> bindings)
            throws SettingsException {
        return install(document, launcher, host, bindings, false);
    }

    /**
     * {@link #install}, with the events either under {@code hooks} ({@code topLevel} false: Claude's
     * {@code settings.json}) or as the document's own members ({@code topLevel} true: Factory Droid's
     * {@code hooks.json}, which ignores a {@code hooks} wrapper).
     */
    public static byte[] install(byte[] document, HookLauncher launcher, String host, List<Binding> bindings, boolean topLevel)
            throws SettingsException {
        byte[] doc = uninstall(document, host, topLevel);
        if (bindings.isEmpty()) {
            return doc;
        }
        if (topLevel) {
            return addEvents(doc, launcher, host, bindings, "");
        }
        JsonSpans.Member hooksMember = SettingsFile.onlyMember(JsonSpans.parse(doc), "hooks", "");
        if (hooksMember == null) {
            Map<String, Object> hooks = new LinkedHashMap<>();
            for (Binding b : bindings) {
                hooks.put(b.nativeEvent(), List.of(group(launcher, host, b)));
            }
            return JsonSplice.appendMember(doc, JsonSpans.parse(doc), "hooks", hooks);
        }
        if (hooksMember.value().kind() != JsonSpans.Kind.OBJECT) {
            throw new SettingsException("settings_hooks_not_object", "\"hooks\" is " + describe(hooksMember.value())
                    + ", not an object of events; Warden will not replace it. Make it an object or remove it, then run"
                    + " again. It was left unchanged.");
        }
        return addEvents(doc, launcher, host, bindings, "hooks.");
    }

    /** One group per binding, each at the end of its event's list in the events' object ({@code path} names it). */
    private static byte[] addEvents(byte[] document, HookLauncher launcher, String host, List<Binding> bindings, String path)
            throws SettingsException {
        byte[] doc = document;
        for (Binding b : bindings) {
            JsonSpans.Value root = JsonSpans.parse(doc);
            JsonSpans.Value hooks = path.isEmpty() ? root : SettingsFile.onlyMember(root, "hooks", "").value();
            JsonSpans.Member event = SettingsFile.onlyMember(hooks, b.nativeEvent(), path);
            if (event == null) {
                doc = JsonSplice.appendMember(doc, hooks, b.nativeEvent(), List.of(group(launcher, host, b)));
            } else if (event.value().kind() != JsonSpans.Kind.ARRAY) {
                throw new SettingsException("settings_event_not_list", path + b.nativeEvent() + " is "
                        + describe(event.value()) + ", not a list of hook groups; Warden will not replace it. Make it a"
                        + " list ([...]) or remove it, then run again. It was left unchanged.");
            } else {
                doc = JsonSplice.appendElement(doc, event.value(), group(launcher, host, b));
            }
        }
        return doc;
    }

    /** {@code document} without Warden's entries (see the class comment); the user's entries stay byte for byte. */
    public static byte[] uninstall(byte[] document, String host) {
        return uninstall(document, host, false);
    }

    /** {@link #uninstall}, events under {@code hooks} or at the top level ({@link #install(byte[], String, String, List, boolean)}). */
    public static byte[] uninstall(byte[] document, String host, boolean topLevel) {
        Set<String> hosts = hostsSharing(host);
        byte[] doc = document;
        for (Found f = find(doc, hosts, topLevel); f != null; f = find(doc, hosts, topLevel)) {
            doc = f.remove(doc);
        }
        return doc;
    }

    /** The native events Warden has entries for, in written order. */
    public static List<String> installedEvents(byte[] document, String host) {
        return installedEvents(document, host, false);
    }

    /** {@link #installedEvents}, events under {@code hooks} or at the top level. */
    public static List<String> installedEvents(byte[] document, String host, boolean topLevel) {
        Set<String> hosts = hostsSharing(host);
        List<String> out = new ArrayList<>();
        forEachHandler(document, (event, handler, isWardens) -> {
            if (isWardens && !out.contains(event)) {
                out.add(event);
            }
        }, hosts, topLevel);
        return out;
    }

    /** The launcher path a command that Warden wrote runs, unquoted; {@code null} for the portable form (PATH). */
    public static String launcherOf(String command) {
        if (isPortable(command)) {
            return null;
        }
        HookCommand.Fast fast = fastParts(command);
        if (fast != null) {
            return fast.launcher();
        }
        String quoted = command.substring(0, command.lastIndexOf(DISPATCH));
        return quoted.startsWith("'") ? quoted.substring(1, quoted.length() - 1).replace("'\\''", "'") : quoted;
    }

    /** The {@link HookCommand.IfMissing} of a portable command Warden wrote, or {@code null} for another command. */
    public static HookCommand.IfMissing portableMode(String command) {
        int dispatch = command.indexOf(DISPATCH);
        int end = dispatch < 0 ? -1 : command.indexOf(';', dispatch);
        return end < 0 ? null : HookCommand.portableMode(command, command.substring(dispatch, end));
    }

    /** Every {@link HookCommand.IfMissing} whose portable command is exactly {@code command} ({@link HookCommand#portableModes}). */
    public static List<HookCommand.IfMissing> portableModes(String command) {
        int dispatch = command.indexOf(DISPATCH);
        int end = dispatch < 0 ? -1 : command.indexOf(';', dispatch);
        return end < 0 ? List.of() : HookCommand.portableModes(command, command.substring(dispatch, end));
    }

    private static boolean isPortable(String command) {
        return portableMode(command) != null;
    }

    /** The compiled hook and the {@code bin/warden} of a fast command Warden wrote, or {@code null} (see {@link HookCommand}). */
    public static HookCommand.Fast fastParts(String command) {
        int dispatch = command.indexOf(DISPATCH);
        int event = dispatch < 0 ? -1 : command.indexOf(NATIVE_EVENT, dispatch);
        int end = event < 0 ? -1 : command.indexOf(';', event);
        return end < 0 ? null : HookCommand.fastParts(command, command.substring(dispatch, end));
    }

    /** Warden's own entries (as {@link #installedEvents} recognises them), in written order. */
    public static List<Installer.Entry> wardenEntries(byte[] document, String host) {
        return wardenEntries(document, host, false);
    }

    /** {@link #wardenEntries}, events under {@code hooks} or at the top level. */
    public static List<Installer.Entry> wardenEntries(byte[] document, String host, boolean topLevel) {
        List<Installer.Entry> out = new ArrayList<>();
        for (JsonSpans.Value events : eventObjects(JsonSpans.parse(document), topLevel)) {
            for (JsonSpans.Member event : events.members()) {
                for (JsonSpans.Value group : event.value().elements()) {
                    JsonSpans.Value handlers = handlersOf(group);
                    if (handlers == null) {
                        continue;
                    }
                    for (JsonSpans.Value handler : handlers.elements()) {
                        if (isWardenHandler(document, handler, event.key(), hostsSharing(host))) {
                            String command = SettingsFile.stringMember(handler, "command");
                            out.add(command != null
                                    ? new Installer.Entry(event.key(), SettingsFile.stringMember(group, "matcher"), launcherOf(command), command)
                                    : new Installer.Entry(event.key(), SettingsFile.stringMember(group, "matcher"), null,
                                            SettingsFile.stringMember(handler, "url")));
                        }
                    }
                }
            }
        }
        return out;
    }

    /**
     * Hook entries that run a Warden dispatch command but are not exactly Warden's own (a
     * customised copy), as {@code hooks.<Event>: <command>}: install and uninstall leave them.
     */
    public static List<String> lookalikes(byte[] document, String host) {
        return lookalikes(document, host, false);
    }

    /** {@link #lookalikes}, events under {@code hooks} or at the top level. */
    public static List<String> lookalikes(byte[] document, String host, boolean topLevel) {
        List<String> out = new ArrayList<>();
        forEachHandler(document, (event, handler, isWardens) -> {
            String command = SettingsFile.stringMember(handler, "command");
            if (!isWardens && command != null && command.contains(DISPATCH) && command.contains(NATIVE_EVENT)) {
                out.add((topLevel ? "" : "hooks.") + event + ": " + command);
            }
        }, hostsSharing(host), topLevel);
        return out;
    }

    /**
     * The objects whose members are events: each {@code hooks} object of the document, or, for a
     * top-level file, the document itself.
     */
    private static List<JsonSpans.Value> eventObjects(JsonSpans.Value root, boolean topLevel) {
        List<JsonSpans.Value> out = new ArrayList<>();
        if (topLevel) {
            if (root.kind() == JsonSpans.Kind.OBJECT) {
                out.add(root);
            }
            return out;
        }
        for (JsonSpans.Member top : root.named("hooks")) {
            if (top.value().kind() == JsonSpans.Kind.OBJECT) {
                out.add(top.value());
            }
        }
        return out;
    }

    private static Map<String, Object> group(HookLauncher launcher, String host, Binding b) {
        Map<String, Object> handler;
        if (b.httpPort() > 0) {
            handler = ClaudeHttpHooks.handler(b.httpPort(), b.httpProject(), host, b.nativeEvent());
        } else {
            Handler shape = Handler.forHost(host);
            handler = new LinkedHashMap<>();
            if (shape.name() != null) {
                handler.put("name", shape.name());
            }
            handler.put("type", "command");
            handler.put("command", command(launcher, host, b.nativeEvent()));
            handler.put("timeout", shape.timeout());
        }
        Map<String, Object> group = new LinkedHashMap<>();
        if (b.matcher() != null) {
            group.put("matcher", b.matcher());
        }
        group.put("hooks", List.of(handler));
        return group;
    }

    /** Where one Warden handler sits, with the containers that empty with it ({@code hooksAt} -1: the events are the root's). */
    private record Found(JsonSpans.Value root, int hooksAt, JsonSpans.Value hooks, int eventAt, JsonSpans.Value groups,
                         int groupAt, JsonSpans.Value group, JsonSpans.Value handlers, int handlerAt) {
        byte[] remove(byte[] doc) {
            if (handlers.elements().size() > 1 || !isWardenShapedGroup(group)) {
                return JsonSplice.remove(doc, handlers, handlerAt);
            }
            if (groups.elements().size() > 1) {
                return JsonSplice.remove(doc, groups, groupAt);
            }
            if (hooks.members().size() > 1 || hooksAt < 0) {
                return JsonSplice.remove(doc, hooks, eventAt);
            }
            return JsonSplice.remove(doc, root, hooksAt);
        }
    }

    private static Found find(byte[] doc, Set<String> hosts, boolean topLevel) {
        JsonSpans.Value root = JsonSpans.parse(doc);
        if (topLevel) {
            return root.kind() == JsonSpans.Kind.OBJECT ? findIn(root, -1, root, hosts, doc) : null;
        }
        List<JsonSpans.Member> top = root.members();
        for (int i = 0; i < top.size(); i++) {
            JsonSpans.Value hooks = top.get(i).value();
            if (!top.get(i).key().equals("hooks") || hooks.kind() != JsonSpans.Kind.OBJECT) {
                continue;
            }
            Found found = findIn(root, i, hooks, hosts, doc);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static Found findIn(JsonSpans.Value root, int i, JsonSpans.Value hooks, Set<String> hosts, byte[] doc) {
        for (int e = 0; e < hooks.members().size(); e++) {
            JsonSpans.Member event = hooks.members().get(e);
            if (event.value().kind() != JsonSpans.Kind.ARRAY) {
                continue;
            }
            List<JsonSpans.Value> groups = event.value().elements();
            for (int g = 0; g < groups.size(); g++) {
                JsonSpans.Value handlers = handlersOf(groups.get(g));
                if (handlers == null) {
                    continue;
                }
                for (int h = 0; h < handlers.elements().size(); h++) {
                    if (isWardenHandler(doc, handlers.elements().get(h), event.key(), hosts)) {
                        return new Found(root, i, hooks, e, event.value(), g, groups.get(g), handlers, h);
                    }
                }
            }
        }
        return null;
    }

    private interface HandlerVisitor {
        void visit(String event, JsonSpans.Value handler, boolean isWardens);
    }

    private static void forEachHandler(byte[] doc, HandlerVisitor visitor, Set<String> hosts, boolean topLevel) {
        for (JsonSpans.Value events : eventObjects(JsonSpans.parse(doc), topLevel)) {
            for (JsonSpans.Member event : events.members()) {
                for (JsonSpans.Value group : event.value().elements()) {
                    JsonSpans.Value handlers = handlersOf(group);
                    if (handlers != null) {
                        for (JsonSpans.Value handler : handlers.elements()) {
                            visitor.visit(event.key(), handler, isWardenHandler(doc, handler, event.key(), hosts));
                        }
                    }
                }
            }
        }
    }

    /** A group's handler list: its one {@code hooks} member when that is an array, else {@code null}. */
    private static JsonSpans.Value handlersOf(JsonSpans.Value group) {
        List<JsonSpans.Member> hooks = group.named("hooks");
        return hooks.size() == 1 && hooks.get(0).value().kind() == JsonSpans.Kind.ARRAY ? hooks.get(0).value() : null;
    }

    /** Exactly the handler Warden writes: {@code type}, {@code command} and {@code timeout} (and {@code name} where the host's has one), each once, nothing else. */
    private static boolean isWardenHandler(byte[] doc, JsonSpans.Value handler, String event, Set<String> hosts) {
        if (handler.kind() == JsonSpans.Kind.OBJECT && handler.members().size() == 5) {
            List<JsonSpans.Member> timeout = handler.named("timeout");
            return timeout.size() == 1 && timeout.get(0).value().kind() == JsonSpans.Kind.NUMBER
                    && ClaudeHttpHooks.isWardens(handler, event, hosts, text(doc, timeout.get(0).value()));
        }
        Handler shape = Handler.forHost(hosts.iterator().next());
        if (handler.kind() != JsonSpans.Kind.OBJECT || handler.members().size() != shape.keys()) {
            return false;
        }
        if (shape.name() != null) {
            List<JsonSpans.Member> name = handler.named("name");
            if (name.size() != 1 || name.get(0).value().kind() != JsonSpans.Kind.STRING
                    || !shape.names(name.get(0).value().text())) {
                return false;
            }
        }
        List<JsonSpans.Member> type = handler.named("type");
        List<JsonSpans.Member> command = handler.named("command");
        List<JsonSpans.Member> timeout = handler.named("timeout");
        return type.size() == 1 && type.get(0).value().isString("command")
                && timeout.size() == 1 && timeout.get(0).value().kind() == JsonSpans.Kind.NUMBER
                && text(doc, timeout.get(0).value()).equals(Long.toString(shape.timeout()))
                && command.size() == 1 && command.get(0).value().kind() == JsonSpans.Kind.STRING
                && isWardenCommand(command.get(0).value().text(), event, hosts);
    }

    /** A group as Warden writes it: a {@code hooks} list and at most a string {@code matcher}. */
    private static boolean isWardenShapedGroup(JsonSpans.Value group) {
        List<JsonSpans.Member> matcher = group.named("matcher");
        int expected = 1 + matcher.size();
        return group.members().size() == expected && matcher.size() <= 1
                && (matcher.isEmpty() || matcher.get(0).value().kind() == JsonSpans.Kind.STRING);
    }

    private static String describe(JsonSpans.Value v) {
        switch (v.kind()) {
            case OBJECT:
                return "an object";
            case ARRAY:
                return "a list";
            case STRING:
                return "a string";
            case NUMBER:
                return "a number";
            default:
                return "true, false or null";
        }
    }

    private static String text(byte[] doc, JsonSpans.Value v) {
        return new String(doc, v.start(), v.end() - v.start(), StandardCharsets.ISO_8859_1);
    }

    static String shellQuote(String s) {
        return HookCommand.quote(s);
    }
}
