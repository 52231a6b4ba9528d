/**
 * Cline's setup: Warden's hook files, one per event, in the project's or the user's hooks directory.
 */
package dev.agentwarden.install.cline;
