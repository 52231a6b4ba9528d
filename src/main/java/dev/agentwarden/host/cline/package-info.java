/**
 * Cline (CLI 3.0.x): the adapter (Cline's hook-file payloads; a block is a cancel of the whole task),
 * the host record, and the per-scope hook files ({@code .clinerules/hooks/}, {@code ~/.cline/hooks/}).
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): ClineAdapter, ClineHost.
 */
package dev.agentwarden.host.cline;
