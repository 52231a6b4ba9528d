/**
 * The trust store: the SHA-256s of a manifest and its scripts the user approved ({@code warden trust}),
 * and which manifest is in force for a project ({@code ProjectManifest}).
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): ProjectManifest, ScriptTrust,
 * TrustException, TrustStore.
 */
package dev.agentwarden.trust;
