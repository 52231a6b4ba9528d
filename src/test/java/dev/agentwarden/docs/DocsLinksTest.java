package dev.agentwarden.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every relative link in the README and the pages beside it names a file that exists; the README stays short. */
class DocsLinksTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)]*)?\\)");

    static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md"), Path.of("SECURITY.md"),
                Path.of("CONTRIBUTING.md"), Path.of("BENCHMARKS.md")));
        try (Stream<Path> docs = Files.walk(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    @Test
    void everyRelativeLink_namesAFileThatExists() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            Matcher m = LINK.matcher(Files.readString(page));
            while (m.find()) {
                String target = m.group(1);
                if (target.contains("://") || target.startsWith("mailto:")) {
                    continue;
                }
                Path resolved = page.toAbsolutePath().getParent().resolve(target).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(page + " -> " + target);
                }
            }
        }
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void readme_staysAtMostTenKilobytes() throws IOException {
        assertThat(Files.size(Path.of("README.md"))).isLessThanOrEqualTo(10 * 1024);
    }
}
