package dev.agentwarden.concern;

/**
 * A problem with a built-in concern's settings, found when the manifest is compiled.
 *
 * @param key     the setting's key path within the concern ({@code candidates[1].max_concurrent})
 * @param message what is wrong
 * @param warning an unknown key (reported, not fatal) rather than an invalid value
 */
public record SettingProblem(String key, String message, boolean warning) {
}
