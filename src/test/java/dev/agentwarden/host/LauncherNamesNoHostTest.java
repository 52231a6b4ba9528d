package dev.agentwarden.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.server.LauncherFacts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The launcher and the compiled hook name no host: what they must know about one (its
 * {@link LauncherContract}) is generated into {@code bin/warden}'s host block from the host's record,
 * and from there into the hook's header. Outside that block neither file spells a host id as a word
 * (case-sensitive: "Codex" in prose is the product, {@code codex} would be the id).
 */
class LauncherNamesNoHostTest {

    @Test
    void launcherAndCompiledHook_outsideTheGeneratedBlock_nameNoHostId() throws Exception {
        String launcher = Files.readString(Path.of("bin/warden"), StandardCharsets.UTF_8);
        String block = LauncherFacts.hostBlockOf(launcher);
        assertThat(block).as("bin/warden's generated host block").isNotNull();
        List<String> found = new ArrayList<>();
        scan("bin/warden", launcher.replace(block, ""), found);
        scan("src/main/c/warden-hook.c", Files.readString(Path.of("src/main/c/warden-hook.c"), StandardCharsets.UTF_8), found);
        assertThat(found).as("host ids in the launcher or the compiled hook (put the fact on the host's"
                + " LauncherContract and regenerate the block: bin/warden __facts --update bin/warden)").isEmpty();
    }

    private static void scan(String file, String text, List<String> found) {
        Set<String> ids = new LinkedHashSet<>(HostIdsStayInHostTest.IDS);
        ids.addAll(Hosts.ids());
        ids.addAll(Hosts.KNOWN);
        List<String> lines = List.of(text.split("\n", -1));
        for (String id : ids) {
            Pattern word = Pattern.compile("(?<![A-Za-z0-9_])" + Pattern.quote(id) + "(?![A-Za-z0-9_])");
            for (int i = 0; i < lines.size(); i++) {
                if (word.matcher(lines.get(i)).find()) {
                    found.add(file + ": " + id + " in " + lines.get(i).strip());
                }
            }
        }
    }
}
