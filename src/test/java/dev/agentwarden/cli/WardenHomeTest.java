package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where Warden finds itself (issue 25): from its own location, a release or a checkout, never the current directory. */
class WardenHomeTest {

    @Test
    void release_isADirectoryWithBinWardenAndLibWardenJar(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("bin"));
        Files.writeString(dir.resolve("bin/warden"), "#!/bin/sh\n");
        Files.createDirectories(dir.resolve("lib"));
        Files.writeString(dir.resolve("lib/warden.jar"), "");

        WardenHome home = WardenHome.at(dir);

        assertThat(home.release()).isTrue();
        assertThat(home.jar()).isEqualTo(dir.resolve("lib/warden.jar"));
        assertThat(home.launcher()).isEqualTo(dir.resolve("bin/warden"));
        assertThat(home.archiveDir(Map.of("WARDEN_CACHE_DIR", dir.resolve("cache").toString())))
                .as("a release's archives live in the user's cache: its own directory may be read-only")
                .isEqualTo(dir.resolve("cache/cds"));
    }

    @Test
    void checkout_keepsItsArchivesUnderTarget(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("bin"));
        Files.writeString(dir.resolve("bin/warden"), "#!/bin/sh\n");

        WardenHome home = WardenHome.at(dir);

        assertThat(home.release()).isFalse();
        assertThat(home.jar()).isEqualTo(dir.resolve("target/warden.jar"));
        assertThat(home.archiveDir(Map.of())).isEqualTo(dir.resolve("target/cds"));
    }

    @Test
    void aDirectoryWithoutBinWarden_isNoHome(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("examples"));

        assertThat(WardenHome.at(dir)).as("examples/ alone does not make a Warden home").isNull();
    }

    @Test
    void locate_fromThisCodesOwnLocation_isThisCheckout() {
        WardenHome home = WardenHome.locate();

        assertThat(home).isNotNull();
        assertThat(home.launcher()).isRegularFile();
        assertThat(home.examples()).isDirectory();
    }

    /** doctor looks for the archive bin/warden writes: the same suffix per JDK generation (issue 25: .jsa vs .static.jsa). */
    @Test
    void startupArchiveName_isTheLaunchers() throws IOException {
        String launcher = Files.readString(WardenHome.locate().launcher(), StandardCharsets.UTF_8);
        Matcher names = Pattern.compile("archive=\"\\$archive_dir/warden-\\$jar_sum-jdk\\$feature\\$jdk_id(\\.[a-z.]+)\"")
                .matcher(launcher);
        assertThat(names.find()).as("bin/warden names the JDK 25+ archive").isTrue();
        String aot = names.group(1);
        assertThat(names.find()).as("bin/warden names the JDK 17-24 archive").isTrue();
        String jsa = names.group(1);

        assertThat(aot).isEqualTo(".aot");
        assertThat(jsa).isEqualTo(".static.jsa");
        assertThat(StartupArchive.suffix(25)).isEqualTo(aot);
        assertThat(StartupArchive.suffix(17)).isEqualTo(jsa);
    }
}
