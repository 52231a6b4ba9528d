package dev.agentwarden.cli;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.install.HostSetups;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code warden doctor}: whether Warden is set up to do what the manifest says, and the command
 * that fixes each thing that is not. For every installable host and scope, the installed entries
 * against what {@code install} would write now (computed by install's own code:
 * {@link InstallCommand#bindings} and the host's {@link dev.agentwarden.install.Installer}), launchers that no longer
 * exist, and the host's own gate; the manifest in force, its lint and trust; the resident (asked
 * through its proven channel); the start-up archive; and the last decisions and errors of the
 * decision log. It changes nothing.
 *
 * <p>Each check is a class of its own ({@link PolicyLayerCheck}, {@link ManifestCheck},
 * {@link InstalledHooksCheck}, {@link ResidentCheck}, {@link ArchiveCheck}, {@link RecentDecisionsCheck})
 * that returns a {@link Section}; {@link DoctorReport} renders them.
 */
@Command(name = "doctor", description = {"Check Warden's set-up: installed hooks against what `install` would write"
        + " now, the manifest in force (lint, trust), the resident server, the start-up archive and recent decisions.",
        "Exit 0 when all is in order, 1 with each problem and the command that fixes it."})
final class DoctorCommand implements Callable<Integer> {
    /** The hosts {@code install} can write, in the order they are checked. */
    static final List<String> HOSTS = Hosts.ids();

    @Spec
    CommandSpec spec;

    @Option(names = "--host", paramLabel = "H", description = "Check only this host (default: every installed one): ${bundle:warden.hosts}.")
    String host;

    @Option(names = "--all", description = "Show every host, installed or not (default: the installed ones, and how many others).")
    boolean all;

    @Option(names = "--ack", description = "Acknowledge the errors in the decision log up to now (recorded in"
            + " .warden/state/" + ErrorAck.FILE + "): older errors are listed as notes and no longer fail doctor.")
    boolean ack;

    @Option(names = "--scope", paramLabel = "S", description = "Check only this scope: project or user (default: both).")
    String scope;

    @Mixin
    JsonOption output;

    @Mixin
    CwdProjectOption project;

    /** The clock recent errors are judged by. */
    Clock clock = Clock.systemUTC();

    /** One thing the doctor found, with the fix for a problem. */
    record Finding(Status status, String text, String fix) {
        /** How a finding stands; a {@link #PROBLEM} fails doctor. */
        enum Status {
            OK("ok"), NOTE("note"), PROBLEM("problem");

            private final String wire;

            Status(String wire) {
                this.wire = wire;
            }

            /** The name in {@code --json} output. */
            String wire() {
                return wire;
            }

            /** The name in the text output, where a problem stands out. */
            String label() {
                return this == PROBLEM ? "PROBLEM" : wire;
            }
        }

        static Finding ok(String text) {
            return new Finding(Status.OK, text, null);
        }

        static Finding note(String text) {
            return new Finding(Status.NOTE, text, null);
        }

        static Finding problem(String text, String fix) {
            return new Finding(Status.PROBLEM, text, fix);
        }
    }

    /** A heading and what was found under it. */
    record Section(String name, List<Finding> findings) {
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        host = Hosts.canonical(host);
        if (host != null && !HOSTS.contains(host)) {
            String unknown = Hosts.unknown(host);
            err.println("warden doctor: " + (unknown != null ? unknown : "--host is one of " + String.join(", ", HOSTS)
                    + ", not '" + host + "' (other hosts cannot be installed yet)"));
            return ExitCode.UNREADABLE.code();
        }
        if (scope != null && Host.Scope.named(scope) == null) {
            err.println("warden doctor: --scope is project, user or local, not '" + scope + "'");
            return ExitCode.UNREADABLE.code();
        }
        Map<String, String> env = WardenCli.env(spec);
        Path root = project.root();
        if (ack) {
            try {
                ErrorAck.record(root, clock.instant());
            } catch (IOException e) {
                err.println("warden doctor: cannot record the acknowledgement: " + e.getMessage());
                return ExitCode.UNREADABLE.code();
            }
        }
        List<Section> sections = new ArrayList<>();
        sections.add(PolicyLayerCheck.managed());
        sections.add(PolicyLayerCheck.user());
        sections.add(ManifestCheck.run(root, env));
        Path home = DemoCommand.home();
        Path launcher = home == null ? null : home.resolve("bin/warden");
        int hidden = 0;
        for (String h : host == null ? HOSTS : List.of(host)) {
            List<Section> hostSections = new ArrayList<>();
            boolean anyInstalled = false;
            for (String s : scope == null ? List.of("project", "local", "user") : List.of(scope)) {
                if (HostSetups.byId(h).installer(Host.Scope.named(s)) == null) {
                    continue;
                }
                Section section = InstalledHooksCheck.run(h, s, root, launcher, env);
                boolean shown = all || host != null || !InstalledHooksCheck.notInstalled(section);
                anyInstalled |= !InstalledHooksCheck.notInstalled(section);
                if (shown) {
                    hostSections.add(section);
                }
            }
            sections.addAll(hostSections);
            hidden += anyInstalled || all || host != null ? 0 : 1;
        }
        if (hidden > 0) {
            sections.add(new Section("other hosts", List.of(Finding.note(hidden + " other host" + (hidden == 1 ? "" : "s")
                    + " not installed (`warden doctor --all` lists them)"))));
        }
        sections.add(ResidentCheck.run(env));
        sections.add(ArchiveCheck.run(WardenHome.locate(), env));
        RecentDecisionsCheck.Recent recent = new RecentDecisionsCheck(clock).run(root.toString());
        sections.add(recent.section());

        DoctorReport report = new DoctorReport(root, sections, recent);
        String notInForce = NotInForce.line(root, env);
        if (output.json) {
            out.println(report.json(notInForce));
        } else {
            if (notInForce != null) {
                out.println(notInForce);
            }
            report.print(out);
        }
        return report.allInOrder() ? ExitCode.OK.code() : ExitCode.FINDINGS.code();
    }
}
