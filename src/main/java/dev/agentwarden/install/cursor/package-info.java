/**
 * Cursor's setup: its {@code hooks.json} per scope and the enterprise file.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): CursorEnterpriseHooks,
 * CursorSetup.
 */
package dev.agentwarden.install.cursor;
