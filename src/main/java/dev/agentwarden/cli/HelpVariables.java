package dev.agentwarden.cli;

import dev.agentwarden.host.Hosts;
import java.util.ListResourceBundle;

/**
 * The values help texts interpolate as {@code ${bundle:KEY}}: {@code warden.hosts}, the hosts a
 * {@code --host} accepts (every id, then the aliases), so each command's help lists them itself.
 */
final class HelpVariables extends ListResourceBundle {
    /** {@code claude, cowork, … or kilo (also claude-code, copilot-cli, …)}. */
    static String hosts() {
        return String.join(", ", Hosts.ids()) + " (also accepted: " + String.join(", ", Hosts.aliases()) + ")";
    }

    @Override
    protected Object[][] getContents() {
        return new Object[][] {{"warden.hosts", hosts()}};
    }
}
