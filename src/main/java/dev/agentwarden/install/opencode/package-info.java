/**
 * OpenCode's setup: Warden's bridge plugin, for OpenCode and every host that loads OpenCode plugins.
 */
package dev.agentwarden.install.opencode;
