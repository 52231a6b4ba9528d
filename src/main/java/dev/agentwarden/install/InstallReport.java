package dev.agentwarden.install;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How Warden's entries in a hooks file differ between two versions of it (before and after an
 * install, or as installed and as install would write them now), per native event: an entry
 * added, changed (its matcher or the launcher it runs), or removed. An event with Warden's entry
 * twice counts the extra copies as removed when the other side has one.
 *
 * @param added   entries only the second version has
 * @param changed pairs {@code [before, after]} for an event both have, differing
 * @param removed entries only the first version has
 */
public record InstallReport(List<Installer.Entry> added, List<Installer.Entry[]> changed,
                            List<Installer.Entry> removed) {

    /** The difference from {@code before} to {@code after}. */
    public static InstallReport between(List<Installer.Entry> before, List<Installer.Entry> after) {
        Map<String, List<Installer.Entry>> old = byEvent(before);
        Map<String, List<Installer.Entry>> now = byEvent(after);
        List<Installer.Entry> added = new ArrayList<>();
        List<Installer.Entry[]> changed = new ArrayList<>();
        List<Installer.Entry> removed = new ArrayList<>();
        for (Map.Entry<String, List<Installer.Entry>> e : now.entrySet()) {
            List<Installer.Entry> was = old.getOrDefault(e.getKey(), List.of());
            List<Installer.Entry> is = e.getValue();
            for (int i = 0; i < is.size(); i++) {
                if (i >= was.size()) {
                    added.add(is.get(i));
                } else if (!is.get(i).equals(was.get(i))) {
                    changed.add(new Installer.Entry[] {was.get(i), is.get(i)});
                }
            }
            for (int i = is.size(); i < was.size(); i++) {
                removed.add(was.get(i));
            }
        }
        for (Map.Entry<String, List<Installer.Entry>> e : old.entrySet()) {
            if (!now.containsKey(e.getKey())) {
                removed.addAll(e.getValue());
            }
        }
        return new InstallReport(added, changed, removed);
    }

    public boolean isEmpty() {
        return added.isEmpty() && changed.isEmpty() && removed.isEmpty();
    }

    /** One line per difference: {@code added PreToolUse matcher=Bash}, {@code changed ...: matcher Bash -> Bash|Edit}, ... */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        for (Installer.Entry e : added) {
            out.add("added   " + e.nativeEvent() + matcher(e));
        }
        for (Installer.Entry[] c : changed) {
            out.add("changed " + c[1].nativeEvent() + ": " + change(c[0], c[1]));
        }
        for (Installer.Entry e : removed) {
            out.add("removed " + e.nativeEvent() + matcher(e));
        }
        return out;
    }

    /**
     * One line per entry of {@code after} (the version written) saying whether it was added, changed
     * or is unchanged, then one per entry removed: what {@code install} prints.
     */
    public List<String> perEntry(List<Installer.Entry> after) {
        List<String> out = new ArrayList<>();
        for (Installer.Entry e : after) {
            String status = "unchanged";
            if (added.contains(e)) {
                status = "added";
            }
            for (Installer.Entry[] c : changed) {
                if (c[1].equals(e)) {
                    status = "changed: " + change(c[0], c[1]);
                }
            }
            out.add(e.nativeEvent() + matcher(e) + "  (" + status + ")");
        }
        for (Installer.Entry e : removed) {
            out.add(e.nativeEvent() + matcher(e) + "  (removed: the manifest binds it no longer)");
        }
        return out;
    }

    /** What differs between two entries for one event, in words. */
    public static String change(Installer.Entry before, Installer.Entry after) {
        List<String> parts = new ArrayList<>();
        if (!Objects.equals(before.matcher(), after.matcher())) {
            parts.add("matcher " + shown(before.matcher()) + " -> " + shown(after.matcher()));
        }
        if (!before.transport().equals(after.transport())) {
            parts.add("transport " + before.transport() + " -> " + after.transport());
        } else if (!Objects.equals(before.launcher(), after.launcher())) {
            parts.add("launcher " + before.launcher() + " -> " + after.launcher());
        } else if (!Objects.equals(before.target(), after.target())) {
            parts.add((before.launcher() == null ? "url " : "command ") + before.target() + " -> " + after.target());
        }
        return String.join(", ", parts);
    }

    private static String matcher(Installer.Entry e) {
        return e.matcher() == null ? "" : "  matcher=" + e.matcher();
    }

    private static String shown(String matcher) {
        return matcher == null ? "(none)" : "\"" + matcher + "\"";
    }

    private static Map<String, List<Installer.Entry>> byEvent(List<Installer.Entry> entries) {
        Map<String, List<Installer.Entry>> out = new LinkedHashMap<>();
        for (Installer.Entry e : entries) {
            out.computeIfAbsent(e.nativeEvent(), k -> new ArrayList<>()).add(e);
        }
        return out;
    }
}
