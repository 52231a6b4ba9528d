package dev.agentwarden.manifest;

/**
 * One finding about a manifest, located at file:line and named by its key path.
 *
 * @param file     manifest path as given
 * @param line     1-based line, or 0 when unknown
 * @param key      dotted key path, e.g. {@code platforms.claude.pre_tool_use}
 * @param message  what is wrong
 * @param kind     error, or warning ({@code --strict} makes warnings errors)
 * @param fatal    the manifest cannot be compiled while this stands
 * @param code     what kind of mistake, stable across releases ({@code unknown-setting}, {@code yaml-syntax}, …)
 */
public record ManifestProblem(String file, int line, String key, String message, Kind kind, boolean fatal, String code) {

    public enum Kind { ERROR, WARNING }

    /** The manifest file cannot be read at all. */
    static final String UNREADABLE = "unreadable";

    public boolean isError() {
        return kind == Kind.ERROR;
    }

    @Override
    public String toString() {
        return file + ":" + line + ": " + kind.name().toLowerCase(java.util.Locale.ROOT) + ": "
                + (key.isEmpty() ? "" : key + ": ") + message + " [" + code + "]";
    }
}
