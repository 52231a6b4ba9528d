package dev.agentwarden.host;

import java.util.List;

/**
 * The files a patch envelope names: the text Codex's {@code apply_patch} takes (in
 * {@code tool_input.command}, or as a shell here-document fed to {@code apply_patch}), and
 * OpenCode's ({@code patchText}) and Cline's ({@code input}) tools of that name:
 *
 * <pre>
 * *** Begin Patch
 * *** Update File: src/app.py
 * *** Move to: src/main.py
 * @@ ...
 * *** Add File: notes.txt
 * *** Delete File: old.txt
 * *** End Patch
 * </pre>
 *
 * Each header line ({@code *** Add File: }, {@code *** Update File: }, {@code *** Delete File: },
 * {@code *** Move to: }), leading blanks allowed as the hosts' lenient parsers allow them, adds its
 * path as written. One pass over the text with plain string searches: it runs on the hot path.
 */
final class PatchEnvelope {
    /** The header lines that name a file the patch writes, creates, deletes or moves to. */
    private static final String[] HEADERS = {"Add File:", "Update File:", "Delete File:", "Move to:"};

    private static final String MARK = "***";

    private PatchEnvelope() {
    }

    /** Adds to {@code out} every path {@code text}'s header lines name, in order. */
    static void addPaths(String text, List<String> out) {
        int from = text.indexOf(MARK);
        while (from >= 0) {
            int lineStart = text.lastIndexOf('\n', from) + 1;
            int end = text.indexOf('\n', from);
            if (end < 0) {
                end = text.length();
            }
            if (onlyBlanks(text, lineStart, from)) {
                String path = headerPath(text, from + MARK.length(), end);
                if (path != null) {
                    out.add(path);
                }
            }
            from = end >= text.length() ? -1 : text.indexOf(MARK, end);
        }
    }

    /** The path after one of {@link #HEADERS} in {@code text[start, end)}, trimmed; else {@code null}. */
    private static String headerPath(String text, int start, int end) {
        int at = skipBlanks(text, start, end);
        for (String header : HEADERS) {
            if (text.startsWith(header, at) && at + header.length() <= end) {
                String path = text.substring(at + header.length(), end).strip();
                return path.isEmpty() ? null : path;
            }
        }
        return null;
    }

    private static int skipBlanks(String text, int at, int end) {
        while (at < end && (text.charAt(at) == ' ' || text.charAt(at) == '\t')) {
            at++;
        }
        return at;
    }

    private static boolean onlyBlanks(String text, int from, int to) {
        return skipBlanks(text, from, to) == to;
    }
}
