package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link Caller}: the environment and working directory a dispatch runs for. */
class CallerTest {
    private static final Path DIR = Path.of("/home/dev/project");

    @Test
    void new_relativeWorkingDir_rejected() {
        assertThatThrownBy(() -> new Caller(Map.of(), Path.of("project/sub"), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("working directory 'project/sub' is not absolute");
    }

    @Test
    void forwarded_relativeWorkingDir_rejected() {
        assertThatThrownBy(() -> Caller.forwarded(Map.of(), Path.of("")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("working directory '' is not absolute");
    }

    @Test
    void thisProcess_jvmWorkingDirAndInheritedChildEnv() {
        Map<String, String> env = Map.of("WARDEN_FAIL_MODE", "closed");

        Caller caller = Caller.thisProcess(env);

        assertThat(caller.env()).isSameAs(env);
        assertThat(caller.workingDir()).isAbsolute().isEqualTo(Path.of(System.getProperty("user.dir")));
        assertThat(caller.childEnv()).as("null: concern processes inherit this JVM's environment").isNull();
    }

    @Test
    void forwarded_envIsAlsoTheChildEnv() {
        Map<String, String> env = Map.of("PATH", "/usr/bin", "ONLY_IN_LAUNCHER", "1");

        Caller caller = Caller.forwarded(env, DIR);

        assertThat(caller.env()).isSameAs(env);
        assertThat(caller.childEnv()).isSameAs(env);
        assertThat(caller.workingDir()).isEqualTo(DIR);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "m.yaml | /home/dev/project/m.yaml",
        "policy/m.yaml | /home/dev/project/policy/m.yaml",
        "../shared/m.yaml | /home/dev/project/../shared/m.yaml",
        "/etc/warden/m.yaml | /etc/warden/m.yaml",
    })
    void resolve_againstWorkingDir(String path, String expected) {
        assertThat(Caller.forwarded(Map.of(), DIR).resolve(path)).isEqualTo(expected);
    }

    @Test
    void resolve_null_null() {
        assertThat(Caller.forwarded(Map.of(), DIR).resolve(null)).isNull();
    }

    @Test
    void resolve_thisProcess_againstJvmWorkingDir() {
        assertThat(Caller.thisProcess(Map.of()).resolve("m.yaml"))
                .isEqualTo(Path.of(System.getProperty("user.dir"), "m.yaml").toString());
    }
}
