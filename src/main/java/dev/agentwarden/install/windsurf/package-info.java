/**
 * Windsurf's setup: its {@code hooks.json} per scope.
 */
package dev.agentwarden.install.windsurf;
