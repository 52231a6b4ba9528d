package dev.agentwarden.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One home for both sides (issue 25): the cache is where bin/warden puts it, {@code $HOME} first. */
class CacheDirTest {

    @Test
    void home_fromTheEnvironment_beforeThePasswdHome() {
        assertThat(CacheDir.root(Map.of("HOME", "/scratch/home"))).isEqualTo(Path.of("/scratch/home/.cache/agent-warden"));
    }

    @Test
    void xdgCacheHome_thenWardenCacheDir_comeFirst() {
        assertThat(CacheDir.root(Map.of("HOME", "/h", "XDG_CACHE_HOME", "/x"))).isEqualTo(Path.of("/x/agent-warden"));
        assertThat(CacheDir.root(Map.of("HOME", "/h", "XDG_CACHE_HOME", "/x", "WARDEN_CACHE_DIR", "/w")))
                .isEqualTo(Path.of("/w"));
    }

    @Test
    void noUsableHome_isThePasswdHome() {
        Path passwd = Path.of(System.getProperty("user.home"), ".cache", "agent-warden");
        assertThat(CacheDir.root(Map.of())).isEqualTo(passwd);
        assertThat(CacheDir.root(Map.of("HOME", "relative"))).isEqualTo(passwd);
    }
}
