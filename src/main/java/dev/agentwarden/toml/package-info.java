/**
 * The small TOML reader ({@link dev.agentwarden.toml.MiniToml}) for the hosts that keep their settings in
 * TOML (Codex's {@code config.toml}): its own package, so that both {@code host} (a host's trust gate)
 * and {@code inventory} (a host's MCP server tables) read it without depending on each other.
 */
package dev.agentwarden.toml;
