package dev.agentwarden.host;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where one file lies that a host's installers write (its hook settings, Warden's hook directory or
 * bridge plugin, at any scope) or that its trust gate reads to decide whether it runs Warden's hooks:
 * a host fact, so that {@code protect-warden} recognises the file without building the host's setup
 * ({@code dev.agentwarden.install}, which a dispatch never loads). A test holds each host's
 * locations to what its installers and trust gate name, for every scope.
 *
 * @param base         what {@link #path} starts from
 * @param path         the file below a project root ({@link Base#PROJECT}), below the home directory
 *                     ({@link Base#HOME}), or the absolute file ({@link Base#MACHINE})
 * @param variable     for {@link Base#HOME}: the environment variable that, when {@link #rule} takes its
 *                     value, names the directory the file is in instead, else {@code null}
 * @param rule         when {@link #variable}'s value counts, and how it is read
 * @param underVariable the file below {@link #variable}'s directory ({@code ""} when the value names the file)
 * @param decidesTrust whether the host's trust gate reads the file (else an installer writes it)
 */
public record SetupFileLocation(Base base, String path, String variable, VariableRule rule, String underVariable,
                                boolean decidesTrust) {

    /** What a location's {@link #path} starts from. */
    public enum Base {
        /** Any project's root: the file is recognised wherever it lies below one. */
        PROJECT,
        /** The home directory: {@code $HOME} when set and not empty, else the JVM's {@code user.home}. */
        HOME,
        /** The root: a machine-wide (managed) file. */
        MACHINE
    }

    /** When an environment variable's value names the file's directory, and as what. */
    public enum VariableRule {
        /** Set and not empty: the value as it is. */
        NOT_EMPTY,
        /** Not blank: the value without surrounding white space. */
        NOT_BLANK_TRIMMED,
        /** Absolute (starts with {@code /}): the value as it is. */
        ABSOLUTE;

        /** The directory {@code value} names under this rule, or {@code null} when it does not count. */
        String directory(String value) {
            if (value == null) {
                return null;
            }
            switch (this) {
                case NOT_EMPTY:
                    return value.isEmpty() ? null : value;
                case NOT_BLANK_TRIMMED:
                    String trimmed = value.trim();
                    return trimmed.isEmpty() ? null : trimmed;
                default:
                    return value.startsWith("/") ? value : null;
            }
        }
    }

    /** {@code path} below any project's root ({@code .claude/settings.json}). */
    public static SetupFileLocation inProject(String path) {
        return new SetupFileLocation(Base.PROJECT, path, null, null, null, false);
    }

    /** {@code path} below the home directory ({@code .claude/settings.json}). */
    public static SetupFileLocation inHome(String path) {
        return new SetupFileLocation(Base.HOME, path, null, null, null, false);
    }

    /** The machine-wide file at the absolute {@code path} ({@code /etc/claude-code/managed-settings.json}). */
    public static SetupFileLocation onMachine(String path) {
        return new SetupFileLocation(Base.MACHINE, path, null, null, null, false);
    }

    /**
     * This home location, except that where {@code variable} is set and not empty the file is
     * {@code underVariable} below the directory it names ({@code ""}: the value is the file).
     */
    public SetupFileLocation unless(String variable, String underVariable) {
        return unless(variable, VariableRule.NOT_EMPTY, underVariable);
    }

    /** This home location, except where {@code variable}'s value counts under {@code rule} (see {@link #unless(String, String)}). */
    public SetupFileLocation unless(String variable, VariableRule rule, String underVariable) {
        return new SetupFileLocation(base, path, variable, rule, underVariable, decidesTrust);
    }

    /** This location as a file the host's trust gate reads ({@link #decidesTrust}). */
    public SetupFileLocation decidingTrust() {
        return new SetupFileLocation(base, path, variable, rule, underVariable, true);
    }

    /** The file, for a project at {@code projectRoot} and the environment the host sees. */
    public Path file(Path projectRoot, Map<String, String> env) {
        switch (base) {
            case PROJECT:
                return projectRoot.resolve(path);
            case MACHINE:
                return Path.of(path);
            default:
                String directory = variable == null ? null : rule.directory(env.get(variable));
                return directory != null ? Path.of(directory).resolve(underVariable) : home(env).resolve(path);
        }
    }

    /**
     * Whether {@code target} (absolute, normalized) is this file: any file that ends in {@link #path}
     * for a project location, else the one file {@code env} puts here.
     */
    public boolean matches(Path target, Map<String, String> env) {
        if (base == Base.PROJECT) {
            return target.endsWith(path);
        }
        return target.equals(file(null, env).toAbsolutePath().normalize());
    }

    private static Path home(Map<String, String> env) {
        String home = env.get("HOME");
        return Path.of(home != null && !home.isEmpty() ? home : System.getProperty("user.home"));
    }
}
