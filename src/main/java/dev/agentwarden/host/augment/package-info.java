/**
 * Augment (auggie): Claude's hook format with Augment's differences (a timeout in milliseconds, its
 * seven events only, no {@code "*"} matcher, PostToolUse and Stop decisions inside
 * {@code hookSpecificOutput}); from its docs and shipped code, no offline run.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): AugmentAdapter, AugmentHost.
 */
package dev.agentwarden.host.augment;
