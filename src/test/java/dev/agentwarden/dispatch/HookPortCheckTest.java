package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.io.LoopbackListener;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link HookPortCheck}: an HTTP-hooks session does not start while another user holds its hook port. */
class HookPortCheckTest {
    @Test
    void problem_portHeldByAnotherUid_namesTheUidAndStopsTheSession() {
        assertThat(HookPortCheck.problem(27123, 1001, 1000))
                .contains("127.0.0.1:27123").contains("uid 1001").contains("stops this session");
    }

    @Test
    void problem_portHeldByThisUserOrNobody_isNone() {
        assertThat(HookPortCheck.problem(27123, 1000, 1000)).isNull();
        assertThat(HookPortCheck.problem(27123, LoopbackListener.NONE, 1000)).isNull();
    }

    @Test
    void problem_sessionWithoutHookToken_isNotChecked() {
        assertThat(HookPortCheck.problem(Map.of("WARDEN_CACHE_DIR", "/nonexistent"))).isNull();
        assertThat(HookPortCheck.problem(Map.of(HookPortCheck.TOKEN_VARIABLE, "", "WARDEN_CACHE_DIR", "/nonexistent")))
                .isNull();
    }
}
