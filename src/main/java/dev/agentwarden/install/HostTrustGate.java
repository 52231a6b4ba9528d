package dev.agentwarden.install;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A host's own gate in front of hooks: what the host checks before it runs the hooks Warden
 * installed (Codex: a trusted project, and each hook reviewed by hash), so that {@code warden
 * doctor} can say when Warden's entries are written but would not run. One per host that has such
 * a gate ({@link #forHost}): Codex's project trust and hook review, Gemini's folder trust and hook
 * fingerprints, Copilot's folder trust.
 */
public interface HostTrustGate {
    /**
     * What the host's gate says about the hooks in {@code hooksFile}.
     *
     * @param user        whether {@code hooksFile} is the user's (not a project's)
     * @param projectRoot the project the doctor looks at
     * @param env         the environment the host would run in ({@code HOME}, {@code CODEX_HOME})
     */
    List<Finding> check(Path hooksFile, boolean user, Path projectRoot, Map<String, String> env);

    /**
     * @param problem whether it keeps Warden's hooks from running (else a note)
     * @param fix     the command or step that fixes it, {@code null} for a note
     */
    record Finding(boolean problem, String text, String fix) {
    }

    /**
     * What {@code warden install} prints after writing {@code hooksFile}: the gate a person still has
     * to pass before the host runs Warden's hooks. None by default; {@code warden doctor} checks.
     */
    default List<String> installNotes(Path hooksFile, boolean user, Path projectRoot, Map<String, String> env) {
        return List.of();
    }

    /**
     * The files this gate reads, where {@code env} puts them: each decides whether the host runs
     * Warden's hooks (its folder or project trust, hook review records, a switch that turns hooks
     * off). {@code protect-warden} refuses an agent's edit of any of them, knowing them from the host's
     * {@link dev.agentwarden.host.Host#setupFiles} (a test holds the two equal). None by default.
     */
    default List<Path> decidingFiles(Map<String, String> env) {
        return List.of();
    }

    /** The gate of {@code host} ({@link HostSetup#trustGate}), or {@code null} when the host runs whatever its settings name. */
    static HostTrustGate forHost(String host) {
        HostSetup h = HostSetups.byId(host);
        return h == null ? null : h.trustGate();
    }
}
