package dev.agentwarden.install.codex;

import dev.agentwarden.install.HookLauncher;
import dev.agentwarden.host.codex.CodexHost;
import dev.agentwarden.install.InstallReport;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.SettingsFile.SettingsException;
import dev.agentwarden.install.claude.ClaudeSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Codex's managed requirements on Linux, {@code /etc/codex/requirements.toml}, at a path fixed by the host.
 * Codex 0.171.0 runs the {@code [[hooks.<Event>]]} matcher groups there (Claude's group shape, in TOML) without
 * hook review, beside project and user hooks; {@code allow_managed_hooks_only = true} there makes it run them alone.
 * A project's {@code [features] hooks = false} turns every hook off, managed ones included, unless this file pins
 * {@code [features] hooks = true} (measured; docs/managed-install.md), so install pins it.
 *
 * <p>Warden's text is one block at the end of the file between {@link #BEGIN} and {@link #END}, plus at most two
 * marked lines ({@link #PIN} under the administrator's own {@code [features]} table, {@link #MANAGED_ONLY_LINE} at
 * the top); everything else is the administrator's and stays byte for byte. A block is Warden's only when it is
 * exactly what Warden writes (re-rendered and compared); any other block under the markers is refused, not replaced.
 */
final class CodexRequirementsFile implements Installer {
    /** Where Codex reads managed requirements on Linux. */
    public static final Path FILE = Path.of("/etc/codex/requirements.toml");

    static final String BEGIN = "# agent-warden managed hooks: begin (`warden uninstall --scope managed --host codex` removes"
            + " this block)";
    static final String END = "# agent-warden managed hooks: end";
    /** Warden's pin under the administrator's own {@code [features]} table. */
    static final String PIN = "hooks = true # agent-warden: a project's [features] hooks = false cannot turn managed hooks off";
    static final String MANAGED_ONLY_LINE = "allow_managed_hooks_only = true # agent-warden: --managed-only";

    private static final Set<String> HOSTS = Set.of(CodexHost.ID);

    /** One of Warden's matcher groups as written. */
    private record Group(String event, String matcher, String command) {
    }

    /** Warden's block as found: where it lies (its separating newline included) and what it holds. */
    private record Block(int from, int to, boolean pinsFeatures, List<Group> groups) {
    }

    @Override
    public Path settingsFile(Path projectRoot, Map<String, String> env) {
        return FILE;
    }

    @Override
    public String describe() {
        return FILE.toString();
    }

    @Override
    public boolean writesToml() {
        return true;
    }

    @Override
    public byte[] install(byte[] document, HookLauncher launcher, List<Binding> bindings) throws SettingsException {
        String text = utf8(document);
        Block old = block(text);
        String base = old == null ? text : text.substring(0, old.from()) + text.substring(old.to());
        List<Group> groups = new ArrayList<>();
        for (Binding b : bindings) {
            checkEventFree(base, b.nativeEvent());
            groups.add(new Group(b.nativeEvent(), b.matcher(), ClaudeSettings.command(launcher, CodexHost.ID, b.nativeEvent())));
        }
        boolean pinInBlock = false;
        switch (featuresHooks(base)) {
            case ABSENT_NO_TABLE -> pinInBlock = true;
            case ABSENT_IN_TABLE -> base = insertAfterFeaturesHeader(base);
            case TRUE -> {
            }
            case FALSE -> throw new SettingsException("settings_managed_features", "[features] hooks is not true in " + FILE
                    + ", so Codex would run no hook at all; change it by hand. The file was left unchanged.");
            case UNSPLICEABLE -> throw new SettingsException("settings_shape", "features are set in " + FILE
                    + " in a form other than a [features] table; add hooks = true there by hand. The file was left"
                    + " unchanged.");
        }
        String rendered = render(pinInBlock, groups);
        String sep = base.isEmpty() ? "" : "\n";
        return (base + sep + rendered).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] uninstall(byte[] document) {
        String text = utf8Lenient(document);
        Block old;
        try {
            old = block(text);
        } catch (SettingsException e) {
            return document;
        }
        String out = old == null ? text : text.substring(0, old.from()) + text.substring(old.to());
        out = TomlText.removeLine(out, PIN);
        return out.equals(text) ? document : out.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public List<String> installedEvents(byte[] document) {
        List<String> out = new ArrayList<>();
        for (Group g : groups(document)) {
            out.add(g.event());
        }
        return out;
    }

    @Override
    public List<Installer.Entry> entries(byte[] document) {
        List<Installer.Entry> out = new ArrayList<>();
        for (Group g : groups(document)) {
            out.add(new Installer.Entry(g.event(), g.matcher(), ClaudeSettings.launcherOf(g.command()), g.command()));
        }
        return out;
    }

    @Override
    public List<String> changeReport(byte[] before, byte[] after) {
        List<Installer.Entry> now = entries(after);
        return InstallReport.between(entries(before), now).perEntry(now);
    }

    /** {@code command = "…"} lines outside Warden's block that run a Codex dispatch: the administrator's. */
    @Override
    public List<String> lookalikes(byte[] document) {
        String text = utf8Lenient(document);
        Block b;
        try {
            b = block(text);
        } catch (SettingsException e) {
            b = null;
        }
        String outside = b == null ? text : text.substring(0, b.from()) + text.substring(b.to());
        List<String> out = new ArrayList<>();
        for (String line : outside.split("\n", -1)) {
            String s = line.strip();
            if (s.startsWith("command") && s.contains("dispatch --host " + CodexHost.ID)) {
                out.add(FILE + ": " + s);
            }
        }
        return out;
    }

    /**
     * {@code document} with {@link #MANAGED_ONLY_LINE} first, or unchanged when it already sets
     * {@code allow_managed_hooks_only = true} before its first table.
     *
     * @throws SettingsException when it sets it to anything else (the administrator's choice)
     */
    @Override
    public byte[] managedHooksOnly(byte[] document) throws SettingsException {
        String text = utf8(document);
        for (String line : topLevel(text)) {
            String s = TomlText.uncommented(line);
            if (TomlText.keyOf(s).equals("allow_managed_hooks_only")) {
                if (TomlText.valueOf(s).equals("true")) {
                    return document;
                }
                throw new SettingsException("settings_managed_only", "allow_managed_hooks_only in " + FILE
                        + " is already set to something other than true; change it by hand. The file was left unchanged.");
            }
        }
        return (MANAGED_ONLY_LINE + "\n" + text).getBytes(StandardCharsets.UTF_8);
    }

    /** {@code document} without Warden's {@link #MANAGED_ONLY_LINE}; the same array when it has none. */
    @Override
    public byte[] withoutManagedHooksOnly(byte[] document) {
        String text = utf8Lenient(document);
        String out = TomlText.removeLine(text, MANAGED_ONLY_LINE);
        return out.equals(text) ? document : out.getBytes(StandardCharsets.UTF_8);
    }

    private static List<Group> groups(byte[] document) {
        try {
            Block b = block(utf8Lenient(document));
            return b == null ? List.of() : b.groups();
        } catch (SettingsException e) {
            return List.of();
        }
    }

    /** Warden's block in {@code text}, or {@code null}; refused when the markers hold anything else. */
    private static Block block(String text) throws SettingsException {
        int begin = TomlText.lineStart(text, BEGIN);
        if (begin < 0) {
            if (TomlText.lineStart(text, END) >= 0) {
                throw edited("an end marker without its begin marker");
            }
            return null;
        }
        int end = TomlText.lineStart(text.substring(begin), END);
        if (end < 0) {
            throw edited("a begin marker without its end marker");
        }
        end += begin;
        int to = Math.min(text.length(), end + END.length() + 1);
        if (TomlText.lineStart(text.substring(to), BEGIN) >= 0) {
            throw edited("two blocks");
        }
        String body = text.substring(begin, to);
        Block parsed = parse(body);
        if (parsed == null || !render(parsed.pinsFeatures(), parsed.groups()).equals(body)) {
            throw edited("a block that is not exactly what Warden writes");
        }
        int from = begin > 0 && text.charAt(begin - 1) == '\n' ? begin - 1 : begin;
        return new Block(from, to, parsed.pinsFeatures(), parsed.groups());
    }

    private static SettingsException edited(String what) {
        return new SettingsException("settings_warden_block_edited", FILE + " holds " + what
                + " between Warden's markers; it was left unchanged. Remove the block by hand, then install again.");
    }

    /** Warden's block text for these groups, ending in a newline. */
    private static String render(boolean pinFeatures, List<Group> groups) {
        StringBuilder b = new StringBuilder(BEGIN).append('\n');
        if (pinFeatures) {
            b.append("[features]\nhooks = true\n\n");
        }
        for (Group g : groups) {
            b.append("[[hooks.").append(g.event()).append("]]\n");
            if (g.matcher() != null) {
                b.append("matcher = ").append(TomlText.quote(g.matcher())).append('\n');
            }
            b.append("[[hooks.").append(g.event()).append(".hooks]]\n");
            b.append("type = \"command\"\n");
            b.append("command = ").append(TomlText.quote(g.command())).append('\n');
            b.append("timeout = ").append(ClaudeSettings.timeoutFor(CodexHost.ID)).append("\n\n");
        }
        return b.append(END).append('\n').toString();
    }

    /** The groups of a block Warden wrote, or {@code null} when a line is not one Warden writes. */
    private static Block parse(String body) {
        String[] lines = body.split("\n", -1);
        int i = 1;
        boolean pin = false;
        if (lines.length > i + 2 && lines[i].equals("[features]")) {
            if (!lines[i + 1].equals("hooks = true") || !lines[i + 2].isEmpty()) {
                return null;
            }
            pin = true;
            i += 3;
        }
        List<Group> groups = new ArrayList<>();
        while (i < lines.length && lines[i].startsWith("[[hooks.") && lines[i].endsWith("]]")) {
            String event = lines[i].substring(8, lines[i].length() - 2);
            if (!TomlText.isBareKey(event)) {
                return null;
            }
            i++;
            String matcher = null;
            if (i < lines.length && lines[i].startsWith("matcher = ")) {
                matcher = TomlText.unquote(lines[i].substring(10));
                i++;
            }
            if (i + 3 >= lines.length || !lines[i].equals("[[hooks." + event + ".hooks]]")
                    || !lines[i + 1].equals("type = \"command\"") || !lines[i + 2].startsWith("command = ")) {
                return null;
            }
            String command = TomlText.unquote(lines[i + 2].substring(10));
            if (command == null || (matcher == null && lines[i - 1].startsWith("matcher = "))
                    || !ClaudeSettings.isWardenCommand(command, event, HOSTS)) {
                return null;
            }
            groups.add(new Group(event, matcher, command));
            i += 5;
        }
        return new Block(0, 0, pin, groups);
    }

    /** Refuses a file that defines {@code hooks.<event>} in a form an appended {@code [[hooks.<event>]]} would break. */
    private static void checkEventFree(String text, String event) throws SettingsException {
        String table = "";
        for (String line : text.split("\n", -1)) {
            String s = TomlText.uncommented(line);
            if (s.startsWith("[")) {
                table = s;
                if (s.equals("[hooks." + event + "]")) {
                    throw shape(event);
                }
                continue;
            }
            String key = TomlText.keyOf(s);
            if (table.isEmpty() && (key.equals("hooks") || key.startsWith("hooks."))
                    || table.equals("[hooks]") && (key.equals(event) || key.startsWith(event + "."))) {
                throw shape(event);
            }
        }
    }

    private static SettingsException shape(String event) {
        return new SettingsException("settings_shape", FILE + " defines hooks." + event + " in a form other than"
                + " [[hooks." + event + "]] tables, which Warden's entries cannot be added to; it was left unchanged.");
    }

    private enum Features { ABSENT_NO_TABLE, ABSENT_IN_TABLE, TRUE, FALSE, UNSPLICEABLE }

    /** What the administrator's text says about {@code [features] hooks}. */
    private static Features featuresHooks(String text) {
        String table = "";
        boolean sawTable = false;
        for (String line : text.split("\n", -1)) {
            String s = TomlText.uncommented(line);
            if (s.startsWith("[")) {
                table = s;
                sawTable |= s.equals("[features]");
                continue;
            }
            String key = TomlText.keyOf(s);
            if (table.isEmpty() && (key.equals("features") || key.startsWith("features."))) {
                return Features.UNSPLICEABLE;
            }
            if (table.equals("[features]") && key.equals("hooks")) {
                return TomlText.valueOf(s).equals("true") ? Features.TRUE : Features.FALSE;
            }
        }
        return sawTable ? Features.ABSENT_IN_TABLE : Features.ABSENT_NO_TABLE;
    }

    private static String insertAfterFeaturesHeader(String text) {
        int at = 0;
        for (String line : text.split("\n", -1)) {
            at += line.length() + 1;
            if (TomlText.uncommented(line).equals("[features]")) {
                break;
            }
        }
        return at > text.length() ? text + "\n" + PIN : text.substring(0, at) + PIN + "\n" + text.substring(at);
    }

    /** The lines before the first table header. */
    private static List<String> topLevel(String text) {
        List<String> out = new ArrayList<>();
        for (String line : text.split("\n", -1)) {
            if (TomlText.uncommented(line).startsWith("[")) {
                break;
            }
            out.add(line);
        }
        return out;
    }

    private static String utf8(byte[] document) throws SettingsException {
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(document)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new SettingsException("settings_not_utf8", FILE + " is not UTF-8 text; it was left unchanged.");
        }
    }

    private static String utf8Lenient(byte[] document) {
        return new String(document, StandardCharsets.UTF_8);
    }
}
