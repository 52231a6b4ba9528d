package dev.agentwarden.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.host.LauncherContract;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What {@code bin/warden} answers a host when Warden cannot run is each host's {@link LauncherContract},
 * generated into the launcher's host block: the block is the generator's output for today's host
 * records, and bash, running the launcher's own {@code refusal} and {@code no_opinion} on it, answers
 * every host and native event as its record says.
 */
class LauncherHostFactsTest {
    private static final Path LAUNCHER = Path.of("bin/warden");
    private static final char CASE_END = '\u001d';
    private static final char FIELD = '\u001e';

    @Test
    void launcherHostBlock_differsFromTheHostRecords_fails() throws Exception {
        String block = LauncherFacts.hostBlockOf(Files.readString(LAUNCHER, StandardCharsets.UTF_8));
        assertThat(block).as("bin/warden's host block; after changing a host's LauncherContract run"
                + " `bin/warden __facts --update bin/warden`").isEqualTo(LauncherFacts.hostBlock());
    }

    @Test
    void launcherFailMode_everyHostAndNativeEvent_answersAsTheHostsContract() throws Exception {
        String script = Files.readString(LAUNCHER, StandardCharsets.UTF_8);
        StringBuilder bash = new StringBuilder(LauncherFacts.hostBlockOf(script));
        for (String function : List.of("dispatch_target", "refusal", "no_opinion")) {
            bash.append(function(script, function));
        }
        List<String[]> cases = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (Host h : Hosts.ALL) {
            LauncherContract c = h.launcher();
            Set<String> events = new TreeSet<>(h.defaultAliases().keySet());
            events.addAll(c.refusals().keySet());
            events.addAll(c.noOpinions().keySet());
            events.add("NoSuchEvent");
            for (String e : events) {
                cases.add(new String[] {h.id(), e});
                expected.add(c.refusal(e) + FIELD + c.closedExit() + FIELD + c.noOpinion(e) + FIELD
                        + c.nonZeroExit().wire());
            }
        }
        for (String unknown : List.of("", "no-such-host")) {
            cases.add(new String[] {unknown, "Stop"});
            expected.add("" + FIELD + LauncherContract.PLAIN.closedExit() + FIELD + FIELD
                    + LauncherContract.PLAIN.nonZeroExit().wire());
        }
        for (String[] c : cases) {
            String args = "dispatch --host '" + c[0] + "' --native-event '" + c[1] + "'";
            bash.append("refusal ").append(args).append("; printf '\\036%d\\036' $?; no_opinion ").append(args)
                    .append("; host_nonzero_exit '").append(c[0]).append("'; printf '\\036%s\\035' \"$host_nonzero\"\n");
        }
        String out = run(bash.toString());
        List<String> answers = List.of(out.split(String.valueOf(CASE_END), -1)).subList(0, cases.size());
        for (int i = 0; i < cases.size(); i++) {
            assertThat(answers.get(i)).as("host '%s', native event %s", cases.get(i)[0], cases.get(i)[1])
                    .isEqualTo(expected.get(i));
        }
    }

    @Test
    void hookHeader_tablesAreEachHostsContract() {
        String header = LauncherFacts.hookHeader();
        int entries = 0;
        for (Host h : Hosts.ALL) {
            LauncherContract c = h.launcher();
            for (var e : c.refusals().entrySet()) {
                assertThat(header).contains("{" + LauncherFacts.cString(h.id() + ":" + e.getKey()) + ", "
                        + LauncherFacts.cString(e.getValue()) + "},\n");
                entries++;
            }
            for (var e : c.noOpinions().entrySet()) {
                assertThat(header).contains("{" + LauncherFacts.cString(h.id() + ":" + e.getKey()) + ", "
                        + LauncherFacts.cString(e.getValue()) + "},\n");
                entries++;
            }
            if (c.closedExit() != LauncherContract.PLAIN.closedExit()) {
                assertThat(header).contains("{" + LauncherFacts.cString(h.id()) + ", " + c.closedExit() + "},\n");
                entries++;
            }
            if (c.nonZeroExit() != LauncherContract.PLAIN.nonZeroExit()) {
                assertThat(header).contains("{" + LauncherFacts.cString(h.id()) + ", "
                        + LauncherFacts.cString(c.nonZeroExit().wire()) + "},\n");
                entries++;
            }
        }
        assertThat(header.split("\n    \\{\"", -1)).as("table rows").hasSize(entries + 1);
        assertThat(LauncherFacts.cString("a\"b\\c\n??=")).isEqualTo("\"a\\\"b\\\\c\\n\\?\\?=\"");
    }

    /** The definition of shell function {@code name} in {@code script}. */
    private static String function(String script, String name) {
        Matcher m = Pattern.compile("(?ms)^" + name + "\\(\\) \\{\n.*?^\\}\n").matcher(script);
        assertThat(m.find()).as("function %s in bin/warden", name).isTrue();
        return m.group();
    }

    private static String run(String script) throws Exception {
        Process p = new ProcessBuilder("bash", "-c", script).redirectErrorStream(false).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(err).as("bash's stderr").isEmpty();
        return new String(out, StandardCharsets.UTF_8);
    }
}
