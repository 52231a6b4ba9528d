package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentwarden.cli.DoctorCommand.Finding;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Doctor reports the commands' archive beside dispatch's: current, missing, given up or stale (issue 31). */
class ArchiveCheckTest {
    @TempDir
    Path dir;
    private WardenHome home;
    private Path jar;
    private Path cds;

    @BeforeEach
    void release() throws IOException {
        Files.createDirectories(dir.resolve("bin"));
        Files.writeString(dir.resolve("bin/warden"), "#!/bin/sh\n");
        Files.createDirectories(dir.resolve("lib"));
        jar = Files.writeString(dir.resolve("lib/warden.jar"), "not really a jar");
        Files.setLastModifiedTime(jar, FileTime.fromMillis(1_700_000_000_000L));
        home = WardenHome.at(dir);
        cds = Files.createDirectories(dir.resolve("cache/cds"));
    }

    private Finding finding() throws IOException {
        return ArchiveCheck.commandsFinding(StartupArchive.commandsOf(cds, jar), home);
    }

    private Path commandsArchive() throws IOException {
        StartupArchive commands = StartupArchive.commandsOf(cds, jar);
        assumeTrue(commands != null, "JDK 25 and later keep no commands archive");
        return commands.archive();
    }

    @Test
    void commandsArchive_isNamedAfterDispatchsArchive() throws IOException {
        Path dispatch = StartupArchive.of(cds, jar).archive();
        String name = dispatch.getFileName().toString();
        assertThat(commandsArchive()).isEqualTo(dispatch.resolveSibling(name.replace(".static.jsa", ".commands.static.jsa")));
    }

    @Test
    void current_isOk() throws IOException {
        Path archive = Files.writeString(commandsArchive(), "archive");
        Files.setLastModifiedTime(archive, Files.getLastModifiedTime(jar));

        assertThat(finding().status()).isEqualTo(Finding.Status.OK);
        assertThat(finding().text()).isEqualTo("commands archive " + archive + ": present and current");
    }

    @Test
    void missing_isANoteNamingHowItIsTrained() throws IOException {
        commandsArchive();

        assertThat(finding().status()).isEqualTo(Finding.Status.NOTE);
        assertThat(finding().text()).startsWith("no commands archive ").contains(home.launcher() + " train-archive");
    }

    @Test
    void aFailedTraining_isANoteNamingTheLogAndTheFix() throws IOException {
        Path archive = commandsArchive();
        Files.writeString(archive.resolveSibling(archive.getFileName() + ".failed"), "");

        assertThat(finding().status()).isEqualTo(Finding.Status.NOTE);
        assertThat(finding().text()).contains("training failed").contains(cds.resolve("train.log").toString())
                .contains(home.launcher() + " train-archive");
    }

    @Test
    void stale_isANote() throws IOException {
        Path archive = Files.writeString(commandsArchive(), "archive");
        Files.setLastModifiedTime(archive, FileTime.fromMillis(1_600_000_000_000L));

        assertThat(finding().status()).isEqualTo(Finding.Status.NOTE);
        assertThat(finding().text()).contains("is stale");
    }
}
