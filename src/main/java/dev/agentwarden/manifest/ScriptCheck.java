package dev.agentwarden.manifest;

import dev.agentwarden.io.StateFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What dispatch needs of a process concern's script, checked at lint: it exists, is a regular file,
 * is executable, and a {@code #!} line names an interpreter that resolves (an absolute path that
 * is executable, or {@code /usr/bin/env NAME} with NAME on {@code PATH}).
 */
final class ScriptCheck {
    /** Bytes read for the {@code #!} line. */
    static final int SHEBANG_BYTES = 256;

    private ScriptCheck() {
    }

    /** What can be wrong with a script, each with its stable lint code. */
    enum Kind {
        MISSING("script-missing"),
        NOT_A_FILE("script-not-a-file"),
        NOT_EXECUTABLE("script-not-executable"),
        INTERPRETER_MISSING("interpreter-missing");

        private final String code;

        Kind(String code) {
            this.code = code;
        }

        String code() {
            return code;
        }
    }

    /** What is wrong with a script, and the sentence lint shows. */
    record Problem(Kind kind, String message) {
    }

    /** What is wrong with the script for dispatch, or {@code null} when it can run. */
    static Problem problem(Path script) {
        if (!Files.exists(script)) {
            return new Problem(Kind.MISSING, "script not found: " + script);
        }
        if (!Files.isRegularFile(script)) {
            return new Problem(Kind.NOT_A_FILE, "not a regular file: " + script + "; a concern's script is a file Warden runs");
        }
        if (!Files.isExecutable(script)) {
            return new Problem(Kind.NOT_EXECUTABLE, "not executable: " + script + "; dispatch cannot run it (chmod +x it)");
        }
        String interpreter = interpreter(script);
        if (interpreter != null && !resolves(interpreter)) {
            return new Problem(Kind.INTERPRETER_MISSING, "interpreter not found: " + script + " starts with #!" + interpreter
                    + ", which does not resolve here, so dispatch cannot run it");
        }
        return null;
    }

    /** The {@code #!} line without its marker, or {@code null} when there is none. */
    private static String interpreter(Path script) {
        byte[] head;
        // a regular file only: a FIFO planted as the script would block the open
        try (InputStream in = java.nio.channels.Channels.newInputStream(StateFiles.openRead(script, true))) {
            head = in.readNBytes(SHEBANG_BYTES);
        } catch (IOException e) {
            return null;
        }
        String text = new String(head, StandardCharsets.UTF_8);
        if (!text.startsWith("#!")) {
            return null;
        }
        int end = text.indexOf('\n');
        return (end < 0 ? text.substring(2) : text.substring(2, end)).strip();
    }

    private static boolean resolves(String line) {
        String[] words = line.split("\\s+");
        if (words.length == 0 || words[0].isEmpty()) {
            return false;
        }
        if (!Files.isExecutable(Path.of(words[0]))) {
            return false;
        }
        if (!words[0].endsWith("/env")) {
            return true;
        }
        String name = null;
        for (int i = 1; i < words.length; i++) {
            if (!words[i].startsWith("-") && !words[i].contains("=")) {
                name = words[i];
                break;
            }
        }
        if (name == null || name.contains("/")) {
            return name != null && Files.isExecutable(Path.of(name));
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                return true;
            }
        }
        return false;
    }
}
