/**
 * Augment's setup: Claude-shaped settings per scope.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): AugmentSetup.
 */
package dev.agentwarden.install.augment;
