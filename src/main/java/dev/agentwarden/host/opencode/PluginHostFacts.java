package dev.agentwarden.host.opencode;

import dev.agentwarden.host.ToolNames;

/**
 * What sets one host that loads OpenCode plugins apart from another (OpenCode, and forks such as
 * Kilo Code): everything else, the bridge, the envelope it sends and the native events, is
 * OpenCode's ({@link OpenCodeHost#pluginHost}).
 *
 * @param id               the host id ({@code opencode}, {@code kilo})
 * @param displayName      the host's name in messages and in the bridge's comment
 * @param projectPluginDir the plugin directory below a project root ({@code .opencode/plugin})
 * @param configDirName    the host's directory under {@code $XDG_CONFIG_HOME} ({@code opencode}),
 *                         whose {@code plugin/} holds the user's plugins
 * @param tools            the host's built-in tool names by kind
 */
public record PluginHostFacts(String id, String displayName, String projectPluginDir, String configDirName,
                              ToolNames tools) {
}
