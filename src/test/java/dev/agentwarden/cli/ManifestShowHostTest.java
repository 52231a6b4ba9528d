package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** {@code warden manifest show --host}: a host name is checked before the event. */
class ManifestShowHostTest {

    /** {@code --host claud} blamed the event ("unknown event 'PreToolUse' for host claud"); now it names the host meant. */
    @Test
    void show_mistypedHost_exit2NamingTheHostMeant() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code = WardenCli.execute(new String[] {"manifest", "show", "--host", "claud", "--event", "PreToolUse"},
                new PrintWriter(out, true), new PrintWriter(err, true));

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).startsWith("warden manifest show: unknown host 'claud'; did you mean `claude`?")
                .doesNotContain("unknown event");
        assertThat(out.toString()).isEmpty();
    }
}
