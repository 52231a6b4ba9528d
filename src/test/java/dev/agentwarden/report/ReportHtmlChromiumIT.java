package dev.agentwarden.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentwarden.decision.DecisionLog;
import dev.agentwarden.io.ReadProgress;
import dev.agentwarden.testing.Chromium;
import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's HTML in a real browser: headless Chromium (Debian's {@code chromium}, which
 * {@code .ci/run} installs) loads the file, its DOM is dumped and checked for each chart's SVG and
 * numbers ({@link Chromium}), and a screenshot (kept under {@code target/}) shows the bars painted in their colours.
 */
class ReportHtmlChromiumIT {
    @TempDir
    Path project;

    @Test
    void reportHtml_inChromium_rendersEveryChartWithItsNumbers() throws Exception {
        assumeTrue(Chromium.available(), "no " + Chromium.BINARY + " (.ci/run installs it)");
        Path dir = DecisionLog.dir(project.toString());
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("2026-11.jsonl"), String.join("",
                ReportTest.line("2026-11-02T10:00:00.000Z", "s1", "PreToolUse", "block", "rm -rf /", 1000,
                        ReportTest.c("no-rm-root", "blocking", "block", false, null)),
                ReportTest.line("2026-11-02T10:30:00.000Z", "s1", "PreToolUse", "block", "rm -rf / <script>alert(1)</script>", 3000,
                        ReportTest.c("no-rm-root", "blocking", "block", false, null)),
                ReportTest.line("2026-11-02T11:00:00.000Z", "s2", "PreToolUse", "allow", "ls", 2000,
                        ReportTest.c("no-rm-root", "blocking", "allow", false, null)),
                ReportTest.line("2026-11-02T11:10:00.000Z", "s2", "UserPromptSubmit", "halt", "deploy", 5000,
                        ReportTest.c("integrity-attach", "blocking", "halt", false, "integrity HALT_CORRUPT: torn"))));
        Path html = Path.of("target", "report-chromium", "report.html").toAbsolutePath();
        Files.createDirectories(html.getParent());
        Files.writeString(html, ReportHtml.render(Report.read(List.of(project.toString()), null, ReportTest.CLOCK,
                ReadProgress.NONE)), StandardCharsets.UTF_8);
        assertThat(Files.readString(html)).doesNotContain("http://").doesNotContain("https://").doesNotContain("<script");

        String dom = Chromium.run("--dump-dom", html.toUri().toString());

        assertThat(dom).contains("<svg data-chart=\"over-time\"");
        assertThat(Chromium.count(dom, "data-verdict=\"block\" data-count=\"2\"")).isEqualTo(1);
        assertThat(Chromium.count(dom, "data-verdict=\"allow\" data-count=\"1\"")).isEqualTo(1);
        assertThat(Chromium.count(dom, "data-verdict=\"halt\" data-count=\"1\"")).isEqualTo(1);
        assertThat(dom).contains("<svg data-chart=\"most-refused\"").contains("data-label=\"rm -rf /\" data-count=\"1\"")
                .contains("rm -rf / &lt;script&gt;alert(1)&lt;/script&gt;");
        assertThat(dom).contains("<svg data-chart=\"integrity\"").contains("data-label=\"HALT_CORRUPT\" data-count=\"1\"")
                .contains("data-label=\"UNKNOWN_HALT\" data-count=\"0\"");
        assertThat(dom).contains("<svg data-chart=\"latency-p99\"").contains("data-label=\"claude PreToolUse p99 µs\" data-count=\"3000\"");
        assertThat(dom).contains("<svg data-chart=\"concern-refusals\"").contains("data-label=\"no-rm-root\" data-count=\"2\"");
        assertThat(dom).contains("id=\"total-decisions\" data-count=\"4\"").contains("id=\"session-total\">2<");
        assertThat(dom).contains("inventory drift per turn");

        Path png = html.resolveSibling("report.png");
        Files.deleteIfExists(png);
        Chromium.run("--screenshot=" + png, "--window-size=1000,1400", "--hide-scrollbars", html.toUri().toString());
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image).as("screenshot %s", png).isNotNull();
        assertThat(Chromium.pixels(image, 0xe53935)).as("red (refusal) bars painted").isGreaterThan(100);
        assertThat(Chromium.pixels(image, 0x4caf50)).as("green (allow) bars painted").isGreaterThan(100);
    }
}
