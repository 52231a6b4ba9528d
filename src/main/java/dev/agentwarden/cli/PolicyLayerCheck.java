package dev.agentwarden.cli;

import dev.agentwarden.cli.DoctorCommand.Finding;
import dev.agentwarden.cli.DoctorCommand.Section;
import dev.agentwarden.managed.ManagedLayer;
import dev.agentwarden.managed.ManagedSettings;
import java.util.ArrayList;
import java.util.List;

/** Doctor's checks of the policy layers under the project's: the administrator's (managed) and the user's. */
final class PolicyLayerCheck {
    private PolicyLayerCheck() {
    }

    /** The administrator's layer under {@code /etc/agent-warden}: absent, in force (with what it sets), or refused. */
    static Section managed() {
        List<Finding> found = new ArrayList<>();
        Section section = new Section("managed policy", found);
        ManagedLayer.State state = ManagedLayer.load();
        switch (state.status()) {
            case ABSENT -> found.add(Finding.note("none (" + ManagedLayer.DIR + " holds no manifest.yaml or settings.json)"));
            case REFUSED -> found.add(Finding.problem(state.problem(), "ask your administrator: files under "
                    + ManagedLayer.DIR + " must be owned by root and writable by root alone"));
            case LOADED -> {
                if (state.manifest() != null) {
                    found.add(Finding.ok("in force: " + ManagedLayer.MANIFEST + " (sha256:"
                            + state.manifest().sourceSha256().substring(0, 12) + "…), concerns "
                            + state.manifest().concerns().keySet() + " run first on every project"));
                }
                ManagedSettings s = state.settings();
                found.add(Finding.ok("settings: fail_mode " + (s.failMode() == null ? "(WARDEN_FAIL_MODE decides)" : s.failMode())
                        + ", project_scripts " + s.projectScripts() + ", reasons "
                        + (s.reasons() == null ? "(the manifest decides)" : s.reasons())
                        + ", min_version " + (s.minVersion() == null ? "(none)" : s.minVersion())
                        + ", retention " + (s.retentionDays() == 0 ? "(none)" : s.retentionDays() + " days")
                        + ", signers " + s.signers().size()
                        + ", telemetry " + (s.telemetry() == null ? "(none)" : s.telemetry().endpoint())));
            }
        }
        return section;
    }

    static Section user() {
        List<Finding> found = new ArrayList<>();
        Section section = new Section("user policy", found);
        List<String> notes = new ArrayList<>();
        dev.agentwarden.managed.UserLayer.State state = dev.agentwarden.managed.UserLayer.load(System.getenv(), notes);
        switch (state.status()) {
            case ABSENT -> found.add(Finding.note("none (" + state.file() + " does not exist)"));
            case REFUSED -> found.add(Finding.problem(state.problem(), "make it yours alone: chown $USER and chmod go-w "
                    + state.file() + " (and its directories), or fix what `warden manifest lint` says"));
            case LOADED -> found.add(Finding.ok("in force: " + state.file() + " (sha256:"
                    + state.manifest().sourceSha256().substring(0, 12) + "…), concerns "
                    + state.manifest().concerns().keySet() + " run after the managed layer and before the project's on every project"));
        }
        for (String note : notes) {
            found.add(Finding.note(note));
        }
        return section;
    }
}
