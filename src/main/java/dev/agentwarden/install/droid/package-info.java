/**
 * Factory Droid's setup: its {@code hooks.json} per scope and the switches that turn hooks off.
 */
package dev.agentwarden.install.droid;
