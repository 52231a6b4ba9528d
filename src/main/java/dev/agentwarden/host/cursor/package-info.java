/**
 * Cursor: {@code hooks.json} ({@code version: 1}) in {@code .cursor/} or {@code ~/.cursor/}, camelCase
 * events, {@code permission: allow|deny|ask}; built from Cursor's documentation only.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): CursorAdapter, CursorHost.
 */
package dev.agentwarden.host.cursor;
