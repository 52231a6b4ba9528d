package dev.agentwarden.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link HookPortFile}: the {@code http-hooks} line is believed only when it is well formed and private. */
class HookPortFileTest {
    private static final String TOKEN = "0123456789abcdef".repeat(4);

    @TempDir
    Path tmp;

    @Test
    void parse_wellFormedLine_givesPortAndToken() {
        assertThat(HookPortFile.parse("27123 " + TOKEN + "\n")).isEqualTo(new HookPortFile.Entry(27123, TOKEN));
    }

    @Test
    void parse_badPortsAndTokens_areRefused() {
        assertThat(HookPortFile.parse("0 " + TOKEN)).isNull();
        assertThat(HookPortFile.parse("65536 " + TOKEN)).isNull();
        assertThat(HookPortFile.parse("27x23 " + TOKEN)).isNull();
        assertThat(HookPortFile.parse("27123 " + TOKEN.toUpperCase())).isNull();
        assertThat(HookPortFile.parse("27123 " + TOKEN + "0")).isNull();
        assertThat(HookPortFile.parse("27123")).isNull();
    }

    @Test
    void read_fileReadableByOthersOrALink_isNotBelieved() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("resident"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path file = Files.writeString(dir.resolve(HookPortFile.NAME), "27123 " + TOKEN + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        assertThat(HookPortFile.read(dir)).isEqualTo(new HookPortFile.Entry(27123, TOKEN));

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        assertThat(HookPortFile.read(dir)).isNull();

        Path real = Files.writeString(tmp.resolve("elsewhere"), "27123 " + TOKEN + "\n");
        Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rw-------"));
        Files.delete(file);
        Files.createSymbolicLink(file, real);
        assertThat(HookPortFile.read(dir)).isNull();
    }
}
