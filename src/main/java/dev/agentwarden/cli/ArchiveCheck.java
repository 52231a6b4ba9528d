package dev.agentwarden.cli;

import dev.agentwarden.cli.DoctorCommand.Finding;
import dev.agentwarden.cli.DoctorCommand.Section;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Doctor's check of the class-data archive bin/warden would start the JVM with. */
final class ArchiveCheck {
    private ArchiveCheck() {
    }

    /** The class-data archive bin/warden would start the JVM with. */
    static Section run(WardenHome home, Map<String, String> env) {
        List<Finding> found = new ArrayList<>();
        Section section = new Section("start-up archive", found);
        Path jar;
        try {
            jar = Path.of(DoctorCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (Exception e) {
            jar = null;
        }
        if (home == null || jar == null || !Files.isRegularFile(jar)) {
            found.add(Finding.note("not checked: not running from an installed Warden's or a checkout's jar"));
            return section;
        }
        if ("1".equals(env.get("WARDEN_NO_ARCHIVE"))) {
            found.add(Finding.note("WARDEN_NO_ARCHIVE=1 here: the JVM starts without one"));
            return section;
        }
        try {
            StartupArchive archive = StartupArchive.of(home.archiveDir(env), jar);
            if (archive.state() == StartupArchive.State.CURRENT) {
                found.add(Finding.ok(archive.describe()));
            } else if (archive.state() == StartupArchive.State.MISSING
                    && Files.isDirectory(archive.archive().resolveSibling(".training-" + archive.archive().getFileName()
                    .toString().substring("warden-".length(), "warden-".length() + 16)))) {
                found.add(Finding.note(archive.describe() + " yet: it is being trained in the background"));
            } else {
                found.add(Finding.problem(archive.describe() + "; each event's JVM starts slower",
                        home.launcher() + " train-archive"));
            }
            found.add(commandsFinding(StartupArchive.commandsOf(home.archiveDir(env), jar), home));
        } catch (IOException e) {
            found.add(Finding.note("not checked: " + e.getMessage()));
        }
        return section;
    }

    /** The commands' archive: its absence slows commands other than dispatch, so it is a note, never a problem. */
    static Finding commandsFinding(StartupArchive commands, WardenHome home) {
        if (commands == null) {
            return Finding.note("commands (all but dispatch) load from the jar: on JDK 25 and later the AOT cache is dispatch's only");
        }
        switch (commands.state()) {
            case CURRENT:
                return Finding.ok("commands archive " + commands.archive() + ": present and current");
            case GIVEN_UP:
                return Finding.note("no commands archive: its training failed (see " + commands.archive().getParent()
                        .resolve("train.log") + "); commands load from the jar until `" + home.launcher()
                        + " train-archive` trains it");
            case STALE:
                return Finding.note("commands archive " + commands.archive() + " is stale (trained for another build"
                        + " of the jar); the first ledger, guard, report, log or export read trains it again in the background");
            default:
                return Finding.note("no commands archive " + commands.archive() + " yet: `" + home.launcher()
                        + " train-archive` trains it, or the first ledger, guard, report, log or export read in the background");
        }
    }
}
