/**
 * Windsurf (Cascade hooks): {@code .windsurf/hooks.json}, snake_case pre/post events; only exit 2 on a
 * pre hook blocks, no JSON and no context; built from Windsurf's documentation only.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): WindsurfAdapter, WindsurfHost.
 */
package dev.agentwarden.host.windsurf;
