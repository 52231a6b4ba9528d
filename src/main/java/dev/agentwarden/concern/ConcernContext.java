package dev.agentwarden.concern;

import dev.agentwarden.event.HookEvent;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/**
 * Everything one concern run may read.
 *
 * @param event     the normalized event
 * @param spec      the concern's manifest entry (posture, settings)
 * @param clock     the only source of time
 * @param stateHome the project's {@code .warden} directory
 * @param env       the process environment
 */
public record ConcernContext(HookEvent event, ConcernSpec spec, Clock clock, Path stateHome,
                             Map<String, String> env) {
}
