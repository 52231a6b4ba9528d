package dev.agentwarden.release;

import dev.agentwarden.event.WorkspaceRoot;
import dev.agentwarden.io.UserState;
import dev.agentwarden.digest.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where a project's rollback floor for signed release manifests lives: in the user's own state,
 * {@code ${XDG_STATE_HOME:-~/.local/state}/agent-warden/release/<sha256 of the project's real path>.json},
 * where neither a cloned repository nor the governed agent editing project files can delete or
 * plant it.
 *
 * <p>The key is the project, not the root: the trust root a verification starts from is named by
 * the project (its manifest's {@code settings.trust_root}, a file in the project), so a key derived
 * from the root would let whoever swaps that file pick a fresh, empty floor. Keyed by project, the
 * floor also pins which root lineage the project trusted: a swapped or foreign root is
 * {@code root_replaced} or {@code root_rollback}. The same root used by two projects therefore has
 * two floors.
 *
 * @param userFile    the authoritative floor file
 * @param projectFile the pre-user-state file ({@code .warden/state/release/trusted.json}), read
 *                    once for migration while {@code userFile} does not exist, or {@code null}
 */
public record ReleaseFloor(Path userFile, Path projectFile) {
    /** Name of the floor file projects kept before the floor moved to the user's state. */
    static final String PROJECT_FILE = "trusted.json";

    /** The floor of the project at {@code projectRoot}, in the user state that {@code env} names. */
    public static ReleaseFloor forProject(Path projectRoot, Map<String, String> env) {
        Path real;
        try {
            real = projectRoot.toRealPath();
        } catch (IOException e) {
            real = projectRoot.toAbsolutePath().normalize();
        }
        String key = Sha256.hex(real.toString().getBytes(StandardCharsets.UTF_8));
        Path projectFile = WorkspaceRoot.stateHome(real.toString()).resolve("state").resolve("release")
                .resolve(PROJECT_FILE);
        return new ReleaseFloor(UserState.home(env).resolve("release").resolve(key + ".json"), projectFile);
    }
}
