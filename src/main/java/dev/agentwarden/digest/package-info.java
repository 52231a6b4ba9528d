/**
 * The project's one SHA-256 helper ({@code Sha256}).
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): Sha256.
 */
package dev.agentwarden.digest;
