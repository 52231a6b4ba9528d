package dev.agentwarden.decision;

import dev.agentwarden.host.HostResponse;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.io.UserState;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The projects this user's Warden has written decisions for: {@code <user state>/projects}, one
 * absolute project root per line, mode 0600 in a 0700 directory ({@link UserState}). Dispatch adds a
 * project when it creates one of its decision segments (its first decision, or its first of a month),
 * so the file is read on the dispatch path only then; {@code warden log --all-projects} and
 * {@code warden report --all-projects} read it.
 */
public final class ProjectRegistry {
    /** The file's name under the user state directory. */
    static final String FILE = "projects";
    /** Largest registry read; a longer one is refused rather than read. */
    static final long MAX_BYTES = 4L << 20;
    private static final String CODE = "project_registry";

    private ProjectRegistry() {
    }

    /** The registry file for {@code env}. */
    public static Path file(Map<String, String> env) {
        return UserState.home(env).resolve(FILE);
    }

    /**
     * Adds {@code root} when absent; returns {@code response}, with a stderr note when the registry
     * could not be written. Never throws.
     */
    static HostResponse add(String root, Map<String, String> env, HostResponse response) {
        try {
            add(root, env);
            return response;
        } catch (IOException | RuntimeException e) {
            return response.withStderr("warden: project not added to " + file(env) + " (" + e.getMessage()
                    + "); warden log --all-projects will not list it; the hook answer is unchanged");
        }
    }

    /** Adds {@code root} to the registry when it is not listed yet. */
    public static void add(String root, Map<String, String> env) throws IOException {
        if (root.indexOf('\n') >= 0 || root.indexOf('\r') >= 0) {
            throw new IOException("a project root with a line break is not recorded");
        }
        Path home = UserState.home(env);
        UserState.ensurePrivateDirectory(home, CODE);
        Path file = home.resolve(FILE);
        if (read(file).contains(root)) {
            return;
        }
        byte[] line = (root + "\n").getBytes(StandardCharsets.UTF_8);
        try (FileChannel ch = FileChannel.open(file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(UserState.FILE_MODE))) {
            UserState.requirePrivate(file, false, CODE);
            StateFiles.writeFully(ch, ByteBuffer.wrap(line), -1);
        }
    }

    /** The roots listed for {@code env}, in the order added, each once; empty when there is no registry. */
    public static List<String> roots(Map<String, String> env) throws IOException {
        return new ArrayList<>(read(file(env)));
    }

    private static Set<String> read(Path file) throws IOException {
        Set<String> roots = new LinkedHashSet<>();
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return roots;
        }
        UserState.requirePrivate(file, false, CODE);
        byte[] bytes;
        try {
            bytes = StateFiles.readAll(file, MAX_BYTES, false);
        } catch (NoSuchFileException gone) {
            return roots;
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        int from = 0;
        while (from < text.length()) {
            int nl = text.indexOf('\n', from);
            if (nl < 0) {
                break; // a line still being written
            }
            if (nl > from) {
                roots.add(text.substring(from, nl));
            }
            from = nl + 1;
        }
        return roots;
    }
}
