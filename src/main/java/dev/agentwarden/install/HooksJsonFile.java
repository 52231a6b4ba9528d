package dev.agentwarden.install;

import dev.agentwarden.install.SettingsFile.SettingsException;
import dev.agentwarden.install.claude.ClaudeSettings;
import dev.agentwarden.json.JsonSpans;
import dev.agentwarden.json.JsonSplice;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A flat {@code hooks.json}: {@code {"hooks": {"<event>": [{"command": …, …}]}}}, each event's list
 * holding command entries directly (Cursor's {@code .cursor/hooks.json} with {@code "version": 1},
 * Windsurf's {@code .windsurf/hooks.json}). Edited as text, like {@link ClaudeSettings}: every byte
 * of the user's entries stays as written.
 *
 * <p>Warden's entry is recognised exactly: an object with {@code command} (the command
 * {@link ClaudeSettings#command} writes for this host and the event it is listed under) and exactly
 * the extra members this file's host gives that event, with the same values. Anything else that runs
 * a Warden dispatch is the user's ({@link #lookalikes}).
 */
public final class HooksJsonFile implements Installer {
    /** The members Warden writes beside {@code command} in an event's entry. */
    public interface EntryExtras {
        Map<String, Object> of(String nativeEvent);

        /** Whether these members make the host refuse the action when the entry exits non-zero ({@link Installer#failsClosedOnError}). */
        default boolean failsClosed(String nativeEvent) {
            return false;
        }
    }

    private final String host;
    private final String describe;
    private final String dir;
    private final String file;
    private final boolean user;
    private final Map<String, Object> topLevel;
    private final EntryExtras extras;

    /**
     * @param host     the host id written into each entry's command
     * @param describe the file as a person knows it
     * @param dir      the directory under the project (or the home directory) holding the file
     * @param file     the file name
     * @param user     under the home directory rather than the project
     * @param topLevel members a new file starts with beside {@code hooks} ({@code "version": 1}), added
     *                 only when absent
     * @param extras   the members Warden's entry carries beside {@code command}, per event
     */
    public HooksJsonFile(String host, String describe, String dir, String file, boolean user,
                         Map<String, Object> topLevel, EntryExtras extras) {
        this.host = host;
        this.describe = describe;
        this.dir = dir;
        this.file = file;
        this.user = user;
        this.topLevel = topLevel;
        this.extras = extras;
    }

    @Override
    public Path settingsFile(Path projectRoot, Map<String, String> env) {
        return user ? Installer.userHome(env).resolve(dir).resolve(file) : projectRoot.resolve(dir).resolve(file);
    }

    @Override
    public String describe() {
        return describe;
    }

    /**
     * Cursor and Windsurf run an entry's {@code command} through a shell (their documentation: a shell
     * command or a script path), so a project install writes the portable command ({@link HookLauncher#portable}).
     */
    @Override
    public boolean commandRunsInAShell() {
        return true;
    }

    @Override
    public boolean failsClosedOnError(String nativeEvent) {
        return extras.failsClosed(nativeEvent);
    }

    @Override
    public byte[] install(byte[] document, HookLauncher launcher, List<Binding> bindings) throws SettingsException {
        byte[] doc = uninstall(document);
        if (bindings.isEmpty()) {
            return doc;
        }
        for (Map.Entry<String, Object> member : topLevel.entrySet()) {
            if (JsonSpans.parse(doc).named(member.getKey()).isEmpty()) {
                doc = JsonSplice.appendMember(doc, JsonSpans.parse(doc), member.getKey(), member.getValue());
            }
        }
        JsonSpans.Member hooksMember = SettingsFile.onlyMember(JsonSpans.parse(doc), "hooks", "");
        if (hooksMember == null) {
            Map<String, Object> hooks = new LinkedHashMap<>();
            for (Binding b : bindings) {
                hooks.put(b.nativeEvent(), List.of(entry(launcher, b.nativeEvent())));
            }
            return JsonSplice.appendMember(doc, JsonSpans.parse(doc), "hooks", hooks);
        }
        if (hooksMember.value().kind() != JsonSpans.Kind.OBJECT) {
            throw new SettingsException("settings_hooks_not_object", "\"hooks\" in " + describe
                    + " is not an object of events; Warden will not replace it. Make it an object or remove it, then run"
                    + " again. It was left unchanged.");
        }
        for (Binding b : bindings) {
            JsonSpans.Value hooks = SettingsFile.onlyMember(JsonSpans.parse(doc), "hooks", "").value();
            JsonSpans.Member event = SettingsFile.onlyMember(hooks, b.nativeEvent(), "hooks.");
            if (event == null) {
                doc = JsonSplice.appendMember(doc, hooks, b.nativeEvent(), List.of(entry(launcher, b.nativeEvent())));
            } else if (event.value().kind() != JsonSpans.Kind.ARRAY) {
                throw new SettingsException("settings_event_not_list", "hooks." + b.nativeEvent() + " in " + describe
                        + " is not a list of hook entries; Warden will not replace it. Make it a list ([...]) or remove"
                        + " it, then run again. It was left unchanged.");
            } else {
                doc = JsonSplice.appendElement(doc, event.value(), entry(launcher, b.nativeEvent()));
            }
        }
        return doc;
    }

    @Override
    public byte[] uninstall(byte[] document) {
        byte[] doc = document;
        for (int[] at = find(doc); at != null; at = find(doc)) {
            JsonSpans.Value root = JsonSpans.parse(doc);
            JsonSpans.Value hooks = root.members().get(at[0]).value();
            JsonSpans.Value list = hooks.members().get(at[1]).value();
            if (list.elements().size() > 1) {
                doc = JsonSplice.remove(doc, list, at[2]);
            } else if (hooks.members().size() > 1) {
                doc = JsonSplice.remove(doc, hooks, at[1]);
            } else {
                doc = JsonSplice.remove(doc, root, at[0]);
            }
        }
        return doc;
    }

    @Override
    public List<String> installedEvents(byte[] document) {
        List<String> out = new ArrayList<>();
        for (String[] e : entries(document, true)) {
            if (!out.contains(e[0])) {
                out.add(e[0]);
            }
        }
        return out;
    }

    /** Warden's entries with the command each runs, so that doctor compares the commands too. */
    @Override
    public List<Entry> entries(byte[] document) {
        List<Entry> out = new ArrayList<>();
        for (String[] e : entries(document, true)) {
            out.add(new Entry(e[0], null, null, e[1]));
        }
        return out;
    }

    @Override
    public List<String> changeReport(byte[] before, byte[] after) {
        List<String> was = new ArrayList<>();
        for (String[] e : entries(before, true)) {
            was.add(e[0] + " " + e[1]);
        }
        List<String> out = new ArrayList<>();
        List<String> now = new ArrayList<>();
        for (String[] e : entries(after, true)) {
            now.add(e[0] + " " + e[1]);
            out.add((was.contains(e[0] + " " + e[1]) ? "unchanged " : "added ") + "hooks." + e[0] + ": " + e[1]);
        }
        for (String w : was) {
            if (!now.contains(w)) {
                out.add("removed hooks." + w.replaceFirst(" ", ": "));
            }
        }
        return out;
    }

    @Override
    public List<String> lookalikes(byte[] document) {
        List<String> out = new ArrayList<>();
        for (String[] e : entries(document, false)) {
            if (e[1].contains(" dispatch --host ")) {
                out.add("hooks." + e[0] + ": " + e[1]);
            }
        }
        return out;
    }

    private Map<String, Object> entry(HookLauncher launcher, String nativeEvent) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("command", ClaudeSettings.command(launcher, host, nativeEvent));
        entry.putAll(extras.of(nativeEvent));
        return entry;
    }

    /** {event, command} of each command entry: Warden's own ({@code wardens}) or every other one. */
    private List<String[]> entries(byte[] doc, boolean wardens) {
        List<String[]> out = new ArrayList<>();
        for (JsonSpans.Member top : JsonSpans.parse(doc).named("hooks")) {
            if (top.value().kind() != JsonSpans.Kind.OBJECT) {
                continue;
            }
            for (JsonSpans.Member event : top.value().members()) {
                for (JsonSpans.Value entry : event.value().elements()) {
                    String command = SettingsFile.stringMember(entry, "command");
                    if (command != null && isWardens(doc, entry, event.key()) == wardens) {
                        out.add(new String[] {event.key(), command});
                    }
                }
            }
        }
        return out;
    }

    /** {top member, event, entry} indexes of the first Warden entry, or null. */
    private int[] find(byte[] doc) {
        List<JsonSpans.Member> top = JsonSpans.parse(doc).members();
        for (int i = 0; i < top.size(); i++) {
            if (!top.get(i).key().equals("hooks") || top.get(i).value().kind() != JsonSpans.Kind.OBJECT) {
                continue;
            }
            List<JsonSpans.Member> events = top.get(i).value().members();
            for (int e = 0; e < events.size(); e++) {
                List<JsonSpans.Value> list = events.get(e).value().elements();
                for (int n = 0; n < list.size(); n++) {
                    if (isWardens(doc, list.get(n), events.get(e).key())) {
                        return new int[] {i, e, n};
                    }
                }
            }
        }
        return null;
    }

    private boolean isWardens(byte[] doc, JsonSpans.Value entry, String nativeEvent) {
        if (entry.kind() != JsonSpans.Kind.OBJECT) {
            return false;
        }
        Map<String, Object> expected = extras.of(nativeEvent);
        if (entry.members().size() != 1 + expected.size()) {
            return false;
        }
        String command = SettingsFile.stringMember(entry, "command");
        if (command == null || !ClaudeSettings.isWardenCommand(command, nativeEvent, Set.of(host))) {
            return false;
        }
        for (Map.Entry<String, Object> extra : expected.entrySet()) {
            List<JsonSpans.Member> found = entry.named(extra.getKey());
            if (found.size() != 1 || !text(doc, found.get(0).value()).equals(String.valueOf(extra.getValue()))) {
                return false;
            }
        }
        return true;
    }

    private static String text(byte[] doc, JsonSpans.Value v) {
        return new String(doc, v.start(), v.end() - v.start(), StandardCharsets.ISO_8859_1);
    }
}
