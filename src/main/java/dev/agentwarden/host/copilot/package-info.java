/**
 * GitHub Copilot CLI: the adapter (both payload formats, the measured output protocol of 1.0.102),
 * the {@code .github/hooks/warden.json} installer, the folder-trust gate and payload templates.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): CopilotAdapter, CopilotHost,
 * CopilotPayloadTemplate.
 */
package dev.agentwarden.host.copilot;
