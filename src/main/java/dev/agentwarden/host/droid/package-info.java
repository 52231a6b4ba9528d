/**
 * Factory Droid: Claude's hook protocol with Droid's dialect, events at the top of
 * {@code .factory/hooks.json}, the {@code Execute} shell tool, and the gate of {@code hooksDisabled}
 * and {@code allowManagedHooksOnly}.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): DroidHost,
 * DroidPayloadTemplate.
 */
package dev.agentwarden.host.droid;
