package dev.agentwarden.host;

import java.nio.file.Path;
import java.util.Map;

/**
 * One file in which a host keeps MCP server declarations, and how its server table reads: a JSON object
 * or a TOML table of servers by name.
 *
 * @param scope        {@link Host.Scope#PROJECT}: the file is under the project (its stdio servers are
 *                     repository code); {@link Host.Scope#USER}: under the user's home
 * @param homeVariable an environment variable that, when set, names the directory used instead of
 *                     {@code ~/<directory>} (user scope), or {@code null}
 * @param directory    the file's directory relative to the project or home ({@code ""} for the root itself)
 * @param file         the file's name
 * @param format       JSON or TOML
 * @param serversKey   the key (JSON) or table (TOML) holding the servers by name
 * @param perProject   the servers sit under {@code projects[<project path>]} rather than at the top
 * @param headersKey   a server entry's key for HTTP headers
 * @param urlAloneIsSse a server entry with a {@code url} and no {@code httpUrl} speaks SSE, whatever its {@code type}
 */
public record McpConfigLocation(Host.Scope scope, String homeVariable, String directory, String file, Format format,
                                String serversKey, boolean perProject, String headersKey, boolean urlAloneIsSse) {

    /** How the file is written. */
    public enum Format {
        JSON, TOML
    }

    /** A JSON file whose servers are the object at {@code serversKey}, with headers under {@code headers}. */
    public static McpConfigLocation json(Host.Scope scope, String directory, String file, String serversKey) {
        return new McpConfigLocation(scope, null, directory, file, Format.JSON, serversKey, false, "headers", false);
    }

    /** A TOML file whose servers are the sub-tables of {@code [<table>]}, with headers under {@code headersKey}. */
    public static McpConfigLocation toml(Host.Scope scope, String directory, String file, String table,
                                         String headersKey) {
        return new McpConfigLocation(scope, null, directory, file, Format.TOML, table, false, headersKey, false);
    }

    /** This location, its directory named by {@code variable} when that is set. */
    public McpConfigLocation inDirectoryNamedBy(String variable) {
        return new McpConfigLocation(scope, variable, directory, file, format, serversKey, perProject, headersKey,
                urlAloneIsSse);
    }

    /** This location, its servers under the project's entry in {@code projects}. */
    public McpConfigLocation underProjectEntry() {
        return new McpConfigLocation(scope, homeVariable, directory, file, format, serversKey, true, headersKey,
                urlAloneIsSse);
    }

    /** This location, where an entry with a {@code url} and no {@code httpUrl} speaks SSE. */
    public McpConfigLocation withUrlAloneAsSse() {
        return new McpConfigLocation(scope, homeVariable, directory, file, format, serversKey, perProject, headersKey,
                true);
    }

    /** Whether the file is under the project. */
    public boolean projectScoped() {
        return scope == Host.Scope.PROJECT;
    }

    /** The file, for the project at {@code project} and the user whose home is {@code home}. */
    public Path path(Path project, Path home, Map<String, String> env) {
        if (scope == Host.Scope.PROJECT) {
            return project.resolve(directory).resolve(file);
        }
        String named = homeVariable == null ? null : env.get(homeVariable);
        return (named != null ? Path.of(named) : home.resolve(directory)).resolve(file);
    }
}
