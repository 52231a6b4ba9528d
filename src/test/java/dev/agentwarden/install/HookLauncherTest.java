package dev.agentwarden.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The program a hook command runs, as a type: one of a path, a path pair, or a portable mode. */
class HookLauncherTest {
    private static final String TAIL = " dispatch --host claude --native-event PreToolUse";

    @Test
    void forms_eachHoldOnlyTheirOwnParts() {
        assertThat(HookLauncher.plain("/opt/w/bin/warden")).satisfies(l -> {
            assertThat(l.isPortable()).isFalse();
            assertThat(l.hook()).isNull();
        });
        assertThat(HookLauncher.fast("/c/hook/bin/warden", "/opt/w/bin/warden").launcher()).isEqualTo("/opt/w/bin/warden");
        assertThat(HookLauncher.portable(HookCommand.IfMissing.WARN)).satisfies(l -> {
            assertThat(l.isPortable()).isTrue();
            assertThat(l.launcher()).isNull();
        });
    }

    @Test
    void mixedOrEmptyParts_refused() {
        assertThatThrownBy(() -> new HookLauncher(null, null, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HookLauncher("/w/bin/warden", null, HookCommand.IfMissing.BLOCK))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HookLauncher(null, "/h/bin/warden", HookCommand.IfMissing.BLOCK))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** The string encoding read a leading \u0001 as "portable" and a NUL as "hook, then launcher"; a path is now a path. */
    @Test
    void pathsThatLookedLikeTheOldMarkers_stayPaths() {
        assertThat(HookLauncher.plain("\u0001block").command(TAIL)).isEqualTo("'\u0001block'" + TAIL);
        assertThat(HookLauncher.plain("/a\0/b/bin/warden").command(TAIL)).isEqualTo("'/a\0/b/bin/warden'" + TAIL);
    }

    @Test
    void fastCommand_readsBackToTheSamePair() {
        HookLauncher fast = HookLauncher.fast("/c/my hook/bin/warden", "/opt/w/bin/warden");
        assertThat(HookCommand.fastParts(fast.command(TAIL), TAIL))
                .isEqualTo(new HookCommand.Fast("/c/my hook/bin/warden", "/opt/w/bin/warden"));
        assertThat(HookCommand.fastParts(HookLauncher.plain("/opt/w/bin/warden").command(TAIL), TAIL)).isNull();
    }

    @Test
    void portableCommand_readsBackToItsMode() {
        for (HookCommand.IfMissing mode : HookCommand.IfMissing.values()) {
            assertThat(HookCommand.portableModes(HookLauncher.portable(mode).command(TAIL), TAIL)).contains(mode);
        }
    }
}
