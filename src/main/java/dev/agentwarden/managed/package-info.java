/**
 * The policy layers under the project's manifest. The administrator's: {@code /etc/agent-warden/manifest.yaml}
 * and {@code settings.json}, checked to be root's alone on every load ({@code RootOwned}). The user's:
 * {@code ~/.config/agent-warden/manifest.yaml}, checked to be the user's alone ({@code UserLayer}). Each is laid
 * under the manifest above it so that nothing above can drop, replace or weaken its concerns ({@code LayeredManifest}).
 *
 * <p>When {@code /etc/agent-warden} exists, dispatch also loads {@code CurrentBundle} (the pulled
 * bundle's link); with managed {@code signers} and a {@code .warden/manifest.yaml.sig}, {@code SignedProjectManifest}.
 * Signed policy bundles ({@code warden policy pull}), off the hot path: PolicyStore, PolicyFetch.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): ManagedLayer, ManagedSettings,
 * UserLayer.
 */
package dev.agentwarden.managed;
