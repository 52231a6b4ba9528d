package dev.agentwarden.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * block-no-verify runs on every Bash PreToolUse of the default manifest, so its classes may not
 * reach for what costs a cold JVM start-up time: regular expressions, lambdas and method
 * references (LambdaMetafactory), streams, reflection, or indy string concatenation.
 */
class BlockNoVerifyHotPathTest {

    private static final String[] CLASSES = {
        "dev/agentwarden/builtin/BlockNoVerify", "dev/agentwarden/builtin/HookBypass",
        "dev/agentwarden/builtin/GitOptionTable", "dev/agentwarden/builtin/GitOptionTable$Option",
        "dev/agentwarden/builtin/GitOptionTable$Resolution", "dev/agentwarden/builtin/GitOptionTable$Effect",
        "dev/agentwarden/builtin/GitOptionTable$Match", "dev/agentwarden/shell/ShellScript",
        "dev/agentwarden/shell/ShellParser", "dev/agentwarden/shell/ShellParser$Word",
        "dev/agentwarden/shell/ShellParser$Heredoc", "dev/agentwarden/shell/ShellParser$Builder",
        "dev/agentwarden/shell/ShellWord", "dev/agentwarden/shell/SimpleCommand",
        "dev/agentwarden/shell/BraceExpansion", "dev/agentwarden/builtin/ProtectWarden",
        "dev/agentwarden/builtin/WardenSelfChange", "dev/agentwarden/shell/CommandWalker",
        "dev/agentwarden/shell/CommandWalker$Visitor", "dev/agentwarden/shell/ProgramNames",
    };

    private static final String[] FORBIDDEN = {
        "java/util/regex", "LambdaMetafactory", "java/util/stream", "java/lang/reflect", "StringConcatFactory",
        "java/lang/invoke",
    };

    @Test
    void classes_useNoStartUpCostlyJdkFeature() throws IOException {
        List<String> found = new ArrayList<>();
        for (String name : CLASSES) {
            String bytes = classBytes(name);
            for (String f : FORBIDDEN) {
                if (bytes.contains(f)) {
                    found.add(name + " uses " + f);
                }
            }
        }
        assertThat(found).isEmpty();
    }

    private static String classBytes(String name) throws IOException {
        try (InputStream in = BlockNoVerifyHotPathTest.class.getClassLoader().getResourceAsStream(name + ".class")) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
