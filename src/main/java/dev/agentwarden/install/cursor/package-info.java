/**
 * Cursor's setup: its {@code hooks.json} per scope and the enterprise file.
 */
package dev.agentwarden.install.cursor;
