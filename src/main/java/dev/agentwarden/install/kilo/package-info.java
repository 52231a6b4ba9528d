/**
 * Kilo Code's setup: OpenCode's bridge plugin in Kilo's directories, behind Kilo's plugin gate.
 */
package dev.agentwarden.install.kilo;
