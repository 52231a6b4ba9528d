package dev.agentwarden.dispatch;

import dev.agentwarden.io.HookPortFile;
import dev.agentwarden.io.LoopbackListener;
import dev.agentwarden.io.OwnedPath;
import java.util.Map;

/**
 * At SessionStart of a session started for HTTP hooks ({@code WARDEN_HOOK_TOKEN} exported, as
 * {@code install --transport http} tells the user to), whether the hook port the host will send its
 * events to is held by another user. Such a listener would read every prompt and tool input and
 * answer every event, so a denied action would run: the session is halted, loudly, instead.
 *
 * <p>A port nobody holds yet is not a problem here: this SessionStart is what starts the resident
 * that binds it, and the resident keeps it while the {@code http-hooks} file names it.
 */
final class HookPortCheck {
    /** The variable an HTTP-hooks session exports (the resident's hook token). */
    static final String TOKEN_VARIABLE = HookPortFile.TOKEN_VARIABLE;

    private HookPortCheck() {
    }

    /** Why this session must not start, or {@code null}. */
    static String problem(Map<String, String> env) {
        String token = env.get(TOKEN_VARIABLE);
        if (token == null || token.isEmpty()) {
            return null;
        }
        HookPortFile.Entry entry = HookPortFile.read(HookPortFile.residentDir(env));
        if (entry == null) {
            return null;
        }
        return problem(entry.port(), LoopbackListener.ownerUid(entry.port()), OwnedPath.currentUid());
    }

    /** The decision for a hook port whose listener is {@code listenerUid} ({@link LoopbackListener#NONE}: nobody). */
    static String problem(int port, int listenerUid, int selfUid) {
        if (listenerUid == LoopbackListener.NONE || listenerUid == selfUid) {
            return null;
        }
        return "the HTTP hook port 127.0.0.1:" + port + ", where this session's hooks go, is held by uid "
                + listenerUid + ", not by you: it would read and answer every hook, so Warden stops this"
                + " session. Find it with `ss -ltnp 'sport = :" + port + "'`, or move to a new port:"
                + " `warden uninstall` then `warden install --transport http` (or use the command transport)";
    }
}
