package dev.agentwarden.host;

import java.nio.file.Path;
import java.util.Set;

/**
 * A file by which a host's hooks, or its trust in them, could be changed, recognised by where it
 * lies (project or home alike): a name in a directory named {@code directory}, itself in one of
 * {@code parents} when that is not empty. {@code protect-warden} refuses edits of these files
 * besides those the host's installers write.
 *
 * @param what      the file as a person names it ({@code Claude Code's hook settings})
 * @param parents   names one of which the directory's own directory has, or empty for any
 * @param directory the name of the file's directory ({@code .claude})
 * @param names     the file's exact names, or empty for any name with {@code prefix} and {@code suffix}
 * @param prefix    how the file's name starts ("" for any)
 * @param suffix    how the file's name ends ("" for any)
 */
public record OwnFile(String what, Set<String> parents, String directory, Set<String> names, String prefix,
                      String suffix) {

    /** A file named one of {@code names} in a directory named {@code directory}. */
    public static OwnFile named(String what, String directory, String... names) {
        return new OwnFile(what, Set.of(), directory, Set.of(names), "", "");
    }

    /** Any file in {@code directory} whose name starts with {@code prefix} and ends with {@code suffix}. */
    public static OwnFile matching(String what, String directory, String prefix, String suffix) {
        return new OwnFile(what, Set.of(), directory, Set.of(), prefix, suffix);
    }

    /** This pattern, only where {@code directory} lies in a directory named one of {@code parentNames}. */
    public OwnFile under(String... parentNames) {
        return new OwnFile(what, Set.of(parentNames), directory, names, prefix, suffix);
    }

    /** Whether {@code target} (absolute, normalized) is such a file. */
    public boolean matches(Path target) {
        Path name = target.getFileName();
        Path dir = target.getParent();
        if (name == null || dir == null || dir.getFileName() == null || !dir.getFileName().toString().equals(directory)) {
            return false;
        }
        String file = name.toString();
        if (names.isEmpty() ? !(file.startsWith(prefix) && file.endsWith(suffix)) : !names.contains(file)) {
            return false;
        }
        if (parents.isEmpty()) {
            return true;
        }
        Path up = dir.getParent();
        return up != null && up.getFileName() != null && parents.contains(up.getFileName().toString());
    }
}
