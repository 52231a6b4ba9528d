package dev.agentwarden.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The shipped manifest reads its hosts from the registry and covers each host's own tool names. */
class DefaultManifestTest {
    private static final Manifest DEFAULT = compile();

    private static Manifest compile() {
        try {
            return ManifestCompiler.compile("builtin:default", DefaultManifest.YAML,
                    ManifestLoader.sha256(DefaultManifest.YAML.getBytes(StandardCharsets.UTF_8))).manifest();
        } catch (ManifestException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    static Stream<Host> hosts() {
        return Hosts.ALL.stream();
    }

    /** Every registered host gets the default chains, and every one of its native events resolves. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("hosts")
    void defaultManifest_everyHost_hasTheChainsAndTheHostsEvents(Host host) {
        for (Map.Entry<String, EventName> e : host.defaultAliases().entrySet()) {
            assertThat(DEFAULT.canonicalEvent(host.id(), e.getKey())).isEqualTo(e.getValue());
        }
        assertThat(DEFAULT.aliasesFor(host.id())).isEqualTo(host.defaultAliases());
        if (!host.defaultAliases().containsValue(EventName.SUBAGENT_START)) {
            return;
        }
        assertThat(DEFAULT.chain(host.id(), EventName.PRE_TOOL_USE, Manifest.DEFAULT_ROLE)).extracting(ConcernSpec::name)
                .containsExactly("block-no-verify", "protect-warden", "spawn-guard");
        assertThat(DEFAULT.chain(host.id(), EventName.SUBAGENT_STOP, Manifest.DEFAULT_ROLE)).extracting(ConcernSpec::name)
                .containsExactly("subagent-ledger");
        java.util.List<String> bound = new java.util.ArrayList<>();
        for (Map.Entry<String, EventName> e : host.defaultAliases().entrySet()) {
            if ((e.getValue() == EventName.PRE_TOOL_USE || e.getValue() == EventName.SUBAGENT_START
                    || e.getValue() == EventName.SUBAGENT_STOP) && !Hosts.installedOnlyWhenNamed(host.id(), e.getKey())) {
                bound.add(e.getKey());
            }
        }
        // Events only newer host versions send (Claude Code 2.1.332's PreSkillShellCommand) are bound, but installed only when named.
        assertThat(DEFAULT.boundNativeEvents(host.id())).filteredOn(e -> !Hosts.installedOnlyWhenNamed(host.id(), e))
                .containsExactlyInAnyOrderElementsOf(bound);
    }

    /**
     * A host without subagent events (Gemini CLI) gets the ledger on its subagent tool's call and
     * result instead, since there is nothing else that would record its subagents.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("hosts")
    void defaultManifest_hostWithoutSubagentEvents_bracketsTheSubagentTool(Host host) {
        if (host.defaultAliases().containsValue(EventName.SUBAGENT_START)) {
            return;
        }
        assertThat(DEFAULT.chain(host.id(), EventName.PRE_TOOL_USE, Manifest.DEFAULT_ROLE)).extracting(ConcernSpec::name)
                .containsExactly("block-no-verify", "protect-warden", "spawn-guard", "subagent-ledger");
        assertThat(DEFAULT.chain(host.id(), EventName.POST_TOOL_USE, Manifest.DEFAULT_ROLE)).extracting(ConcernSpec::name)
                .containsExactly("subagent-ledger");
        assertThat(DEFAULT.concerns().get("subagent-ledger").tools()).containsAll(host.tools().subagentDispatch());
    }

    /**
     * The tool filters are the registry's tool names, not a second list: protect-warden covers every
     * host's file-edit tools too (Qwen Code's notebook_edit and Cursor's Delete were missing while the
     * lists were written by hand).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("hosts")
    void defaultManifest_toolFilters_areEveryHostsRegisteredToolNames(Host host) {
        List<String> edits = new ArrayList<>(host.tools().shell());
        edits.addAll(host.tools().fileEdit());
        assertThat(DEFAULT.concerns().get("protect-warden").tools()).containsAll(edits);
        assertThat(DEFAULT.concerns().get("subagent-ledger").tools()).containsAll(host.tools().subagentDispatch());
        assertThat(DEFAULT.concerns().get("protect-warden").tools())
                .containsExactlyInAnyOrderElementsOf(Hosts.toolNames(ToolKind.SHELL, ToolKind.FILE_EDIT));
    }

    /**
     * The default manifest's text is the same in every JVM (its SHA-256 keys the compiled-manifest
     * cache): host by host, each host's names sorted, never a set's iteration order.
     */
    @org.junit.jupiter.api.Test
    void defaultManifest_toolLists_areHostOrderThenSorted() {
        assertThat(Hosts.toolNames(ToolKind.SHELL)).startsWith("Bash", "bash", "powershell", "run_commands",
                "run_shell_command", "Shell", "run_command", "launch-process");
        assertThat(DefaultManifest.YAML).contains("    tools: [" + String.join(", ", Hosts.toolNames(ToolKind.SHELL)) + "]\n");
    }

    /**
     * The constant a dispatch reads is the registry's rendering, byte for byte: a host added to (or
     * changed in) {@link Hosts#ALL} without rewriting the constant fails here, not at a user's
     * dispatch. {@code -Dwarden.defaultmanifest.write=true} rewrites it.
     */
    @org.junit.jupiter.api.Test
    void defaultManifest_constant_isTheRegistrysRendering() throws IOException {
        String rendered = DefaultManifest.render();
        if (Boolean.getBoolean("warden.defaultmanifest.write") && (!rendered.equals(DefaultManifest.YAML)
                || !DefaultManifest.SHA256.equals(ManifestLoader.sha256(rendered.getBytes(StandardCharsets.UTF_8)))
                || DefaultManifest.YAML_HASH != rendered.hashCode())) {
            rewriteConstant(rendered);
        }
        assertThat(DefaultManifest.YAML).as("DefaultManifest.YAML against DefaultManifest.render() (rewrite it with"
                + " -Dwarden.defaultmanifest.write=true, then rebuild)").isEqualTo(rendered);
    }

    /**
     * The digest written beside the text is the text's, and so is the hash a dispatch checks before
     * trusting it; a source whose text no longer has that hash is hashed in full, so a stale digest
     * never keys the compiled cache.
     */
    @org.junit.jupiter.api.Test
    void defaultManifest_writtenDigest_isTheTextsAndKeysTheBuiltinSource() {
        byte[] bytes = DefaultManifest.YAML.getBytes(StandardCharsets.UTF_8);
        assertThat(DefaultManifest.SHA256).as("DefaultManifest.SHA256 (rewrite with -Dwarden.defaultmanifest.write=true)")
                .isEqualTo(ManifestLoader.sha256(bytes));
        assertThat(DefaultManifest.YAML_HASH).as("DefaultManifest.YAML_HASH").isEqualTo(DefaultManifest.YAML.hashCode());
        assertThat(ManifestLoader.builtinDefault().sha()).isEqualTo(ManifestLoader.sha256(bytes));
        assertThat(ManifestLoader.builtinDefault().bytes()).isEqualTo(bytes);
    }

    private static void rewriteConstant(String yaml) throws IOException {
        Path source = Path.of("src/main/java/dev/agentwarden/manifest/DefaultManifest.java");
        String text = Files.readString(source, StandardCharsets.UTF_8);
        String open = "    static final String YAML = \"\"\"\n";
        int start = text.indexOf(open);
        int end = text.indexOf("\"\"\";\n", start + open.length());
        assertThat(start).as("the YAML text block in %s", source).isNotNegative();
        assertThat(yaml).as("rendered default manifest (a text block holds it as is)").doesNotContain("\\", "\"\"\"", " \n");
        text = text.substring(0, start + open.length()) + yaml + text.substring(end);
        text = replaceValue(text, "    static final String SHA256 = \"", "\";",
                ManifestLoader.sha256(yaml.getBytes(StandardCharsets.UTF_8)));
        text = replaceValue(text, "    static final int YAML_HASH = ", ";", Integer.toString(yaml.hashCode()));
        Files.writeString(source, text, StandardCharsets.UTF_8);
    }

    private static String replaceValue(String text, String before, String after, String value) {
        int at = text.indexOf(before);
        assertThat(at).as("%s in DefaultManifest.java", before.strip()).isNotNegative();
        int end = text.indexOf(after, at + before.length());
        return text.substring(0, at + before.length()) + value + text.substring(end);
    }

    /** The tool filters name every host's shell tools (block-no-verify) and subagent-dispatch tools (spawn-guard). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("hosts")
    void defaultManifest_toolFilters_coverEveryHostsTools(Host host) {
        assertThat(DEFAULT.concerns().get("block-no-verify").tools()).containsAll(host.tools().shell());
        assertThat(DEFAULT.concerns().get("protect-warden").tools()).containsAll(host.tools().shell());
        assertThat(DEFAULT.concerns().get("spawn-guard").tools()).containsAll(host.tools().subagentDispatch());
    }
}
