package dev.agentwarden.host;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Readers of a tool call's input object, for adapters whose hosts name its fields alike. */
public final class ToolInputs {
    private ToolInputs() {
    }

    /**
     * The {@code command} string of a tool input (the shell tool's, and any other tool's that names
     * one, as Codex's {@code apply_patch} its patch), or {@code null}.
     */
    public static String command(Object toolInput) {
        return toolInput instanceof Map<?, ?> map && map.get("command") instanceof String s ? s : null;
    }

    /** The tool input keys an edit tool carries a patch envelope under: Codex's, Cline's, OpenCode's, and their kin. */
    private static final String[] PATCH_KEYS = {"command", "input", "patch", "patchText", "patch_text"};

    /**
     * The string values of {@code keys} in a tool input, then every file a patch envelope in it
     * names ({@link #patchPaths}): the files a tool call would write, as {@code filePaths} holds them.
     */
    public static List<String> filePaths(Object toolInput, String... keys) {
        List<String> out = new ArrayList<>(strings(toolInput, keys));
        addPatchPaths(toolInput, out);
        return out;
    }

    /**
     * The files named by a patch envelope ({@code *** Update File: path}, {@code *** Add File:},
     * {@code *** Delete File:}, {@code *** Move to:}) in a tool input: a string input itself, or its
     * {@code command}, {@code input}, {@code patch} or {@code patchText} string (Codex's, Cline's and
     * OpenCode's {@code apply_patch}; a shell command feeding one to {@code apply_patch}).
     */
    public static List<String> patchPaths(Object toolInput) {
        List<String> out = new ArrayList<>(2);
        addPatchPaths(toolInput, out);
        return out;
    }

    /** Adds {@link #patchPaths} of {@code toolInput} to {@code out}. */
    public static void addPatchPaths(Object toolInput, List<String> out) {
        if (toolInput instanceof String text) {
            addEnvelopePaths(text, out);
            return;
        }
        if (!(toolInput instanceof Map<?, ?> map)) {
            return;
        }
        for (String key : PATCH_KEYS) {
            if (map.get(key) instanceof String text) {
                addEnvelopePaths(text, out);
            }
        }
    }

    /** A text without a header mark holds no envelope: the parser's class loads only for one that may. */
    private static void addEnvelopePaths(String text, List<String> out) {
        if (text.indexOf("***") >= 0) {
            PatchEnvelope.addPaths(text, out);
        }
    }

    /**
     * The string values of {@code keys} in a tool input, in the order of {@code keys}; a key whose
     * value is missing or not a string adds nothing, and an input that is not an object gives none.
     */
    public static List<String> strings(Object toolInput, String... keys) {
        if (!(toolInput instanceof Map<?, ?> map)) {
            return List.of();
        }
        List<String> out = new ArrayList<>(keys.length);
        for (String key : keys) {
            if (map.get(key) instanceof String value) {
                out.add(value);
            }
        }
        return out;
    }
}
