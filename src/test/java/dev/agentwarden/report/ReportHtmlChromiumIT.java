package dev.agentwarden.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentwarden.decision.DecisionLog;
import dev.agentwarden.io.ReadProgress;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's HTML in a real browser: headless Chromium (Debian's {@code chromium}, which
 * {@code .ci/run} installs) loads the file, its DOM is dumped and checked for each chart's SVG and
 * numbers, and a screenshot (kept under {@code target/}) shows the bars painted in their colours.
 */
class ReportHtmlChromiumIT {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @TempDir
    Path project;

    @Test
    void reportHtml_inChromium_rendersEveryChartWithItsNumbers() throws Exception {
        assumeTrue(Files.isExecutable(CHROMIUM), "no " + CHROMIUM + " (.ci/run installs it)");
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

        String dom = chromium("--dump-dom", html.toUri().toString());

        assertThat(dom).contains("<svg data-chart=\"over-time\"");
        assertThat(count(dom, "data-verdict=\"block\" data-count=\"2\"")).isEqualTo(1);
        assertThat(count(dom, "data-verdict=\"allow\" data-count=\"1\"")).isEqualTo(1);
        assertThat(count(dom, "data-verdict=\"halt\" data-count=\"1\"")).isEqualTo(1);
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
        chromium("--screenshot=" + png, "--window-size=1000,1400", "--hide-scrollbars", html.toUri().toString());
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image).as("screenshot %s", png).isNotNull();
        assertThat(pixels(image, 0xe53935)).as("red (refusal) bars painted").isGreaterThan(100);
        assertThat(pixels(image, 0x4caf50)).as("green (allow) bars painted").isGreaterThan(100);
    }

    private static String chromium(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--user-data-dir=" + Files.createTempDirectory("chromium-profile")));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("chromium", ".out");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish within 120 s: " + cmd);
        }
        assertThat(p.exitValue()).as("chromium exit, %s", cmd).isZero();
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }

    private static int pixels(BufferedImage image, int rgb) {
        int n = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xffffff) == rgb) {
                    n++;
                }
            }
        }
        return n;
    }
}
