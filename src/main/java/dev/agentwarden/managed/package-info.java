/**
 * The administrator's policy layer: {@code /etc/agent-warden/manifest.yaml} and {@code settings.json},
 * checked to be root's alone on every load ({@code RootOwned}), laid under the manifest in force so
 * that no project, user or agent can drop, replace or weaken its concerns ({@code LayeredManifest}).
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): ManagedLayer, ManagedSettings.
 *
 * <p>When {@code /etc/agent-warden} exists, dispatch also loads {@code CurrentBundle} (the pulled
 * bundle's link). Signed policy bundles ({@code warden policy pull}), off the hot path: PolicyStore, PolicyFetch.
 */
package dev.agentwarden.managed;
