/**
 * Gemini CLI: the adapter for its snake_case payloads and capability table, the nested
 * {@code settings.json} hooks installer (named handler, timeout in milliseconds), and its folder-trust
 * and hook-fingerprint gate.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): GeminiAdapter, GeminiHost,
 * GeminiMcpContext.
 */
package dev.agentwarden.host.gemini;
