/**
 * The manifest: its YAML reader and linter (cold), the compiled cache ({@code ManifestCodec}) that
 * dispatch reads, and the built-in default manifest.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): Manifest, ManifestCodec,
 * ManifestException, ManifestLoader.
 */
package dev.agentwarden.manifest;
