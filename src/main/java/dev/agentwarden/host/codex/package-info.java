/**
 * OpenAI Codex CLI: the adapter (Claude's protocol with Codex's downgrades), the host record and
 * Codex's own hook-trust gate.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): CodexAdapter, CodexHost,
 * CodexPayloadTemplate.
 */
package dev.agentwarden.host.codex;
