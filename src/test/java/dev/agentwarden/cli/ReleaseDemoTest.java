package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReleaseDemoTest {
    @TempDir
    Path work;

    @Test
    void run_showsEveryTrustOutcome() throws Exception {
        StringWriter text = new StringWriter();

        new ReleaseDemo().run(new DemoEnv(new PrintWriter(text, true), work, null, null, System.getenv()));

        assertThat(text.toString())
                .contains("UNTRUSTED signature_threshold_not_met")
                .contains("release_integrity: VERIFIED (normalized:squad-template)")
                .contains("release_integrity: MISMATCH")
                .contains("UNTRUSTED manifest_rollback")
                .contains("release_integrity: UNREGISTERED (manifest_expired)")
                .contains("{\"a\":[1,5e-324,\"\u00e9\"],\"b\":2e+23}")
                .doesNotContain(work.toString());
    }
}
