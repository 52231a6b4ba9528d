package dev.agentwarden.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Ansi.Text;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.ColorScheme;
import picocli.CommandLine.Help.TextTable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * picocli's help, wrapped only at spaces. picocli breaks lines where {@link java.text.BreakIterator}
 * allows, which includes after a {@code .} before a letter: {@code .warden/state} became {@code .} then
 * {@code warden/state} on the next line. Every table the help prints (options, commands,
 * description, header, footer) is a {@link SpaceWrappedTable}, which breaks each text at spaces
 * before picocli sees it; a word longer than its column is still cut, as picocli would.
 */
final class SpaceWrappedHelp extends Help {
    /** The factory every command of {@link WardenCli} uses. */
    static final CommandLine.IHelpFactory FACTORY = SpaceWrappedHelp::new;

    private SpaceWrappedHelp(CommandSpec spec, ColorScheme scheme) {
        super(spec, scheme);
    }

    @Override
    public Layout createDefaultLayout(List<OptionSpec> options, List<PositionalParamSpec> positionals, ColorScheme scheme) {
        Layout picocli = super.createDefaultLayout(options, positionals, scheme);
        return new Layout(scheme, SpaceWrappedTable.of(scheme, picocli.textTable()), picocli.optionRenderer(),
                picocli.parameterRenderer());
    }

    /** As picocli 4.7 lists subcommands (name column, then each one's header or first description line), space-wrapped. */
    @Override
    public String commandList(Map<String, Help> subcommands) {
        if (subcommands.isEmpty()) {
            return "";
        }
        int width = commandSpec().usageMessage().width();
        int longest = 0;
        for (String name : subcommands.keySet()) {
            longest = Math.max(longest, name.length());
        }
        int names = Math.min(longest, width / 2);
        TextTable table = new SpaceWrappedTable(colorScheme(), new Column[] {new Column(names + 2, 2, Column.Overflow.SPAN),
                new Column(width - (names + 2), 2, Column.Overflow.WRAP)});
        table.setAdjustLineBreaksForWideCJKCharacters(commandSpec().usageMessage().adjustLineBreaksForWideCJKCharacters());
        for (Map.Entry<String, Help> e : subcommands.entrySet()) {
            CommandLine.Model.UsageMessageSpec usage = e.getValue().commandSpec().usageMessage();
            String first = usage.header().length > 0 ? usage.header()[0]
                    : usage.description().length > 0 ? usage.description()[0] : "";
            Text[] lines = colorScheme().text(String.format(first)).splitLines();
            for (int i = 0; i < lines.length; i++) {
                table.addRowValues(i == 0 ? e.getValue().commandNamesText(", ") : colorScheme().text(""), lines[i]);
            }
        }
        return table.toString();
    }

    @Override
    public TextTable createTextTable(Map<?, ?> map) {
        return SpaceWrappedTable.of(colorScheme(), super.createTextTable(map));
    }

    @Override
    public String description(Object... params) {
        return lines(commandSpec().usageMessage().description(), params);
    }

    @Override
    public String header(Object... params) {
        return lines(commandSpec().usageMessage().header(), params);
    }

    @Override
    public String footer(Object... params) {
        return lines(commandSpec().usageMessage().footer(), params);
    }

    /** As picocli joins a section's lines (each formatted with {@code params}), in one column as wide as the help. */
    private String lines(String[] values, Object... params) {
        if (values == null || values.length == 0) {
            return "";
        }
        TextTable table = new SpaceWrappedTable(colorScheme(),
                new Column[] {new Column(commandSpec().usageMessage().width(), 0, Column.Overflow.WRAP)});
        table.setAdjustLineBreaksForWideCJKCharacters(commandSpec().usageMessage().adjustLineBreaksForWideCJKCharacters());
        table.indentWrappedLines = 0;
        for (String value : values) {
            table.addRowValues(colorScheme().text(params.length == 0 ? value : String.format(value, params)));
        }
        return table.toString();
    }

    /** A {@link TextTable} whose wrapping columns break at spaces. */
    static final class SpaceWrappedTable extends TextTable {
        SpaceWrappedTable(ColorScheme scheme, Column[] columns) {
            super(scheme, columns);
        }

        /** A table with the columns (and wrapped-line indent) of {@code like}. */
        static SpaceWrappedTable of(ColorScheme scheme, TextTable like) {
            SpaceWrappedTable t = new SpaceWrappedTable(scheme, like.columns());
            t.indentWrappedLines = like.indentWrappedLines;
            t.setAdjustLineBreaksForWideCJKCharacters(like.isAdjustLineBreaksForWideCJKCharacters());
            return t;
        }

        @Override
        public Cell putValue(int row, int col, Text value) {
            Column column = columns()[col];
            if (value == null || column.overflow != Column.Overflow.WRAP) {
                return super.putValue(row, col, value);
            }
            List<Text> lines = linesAtSpaces(value, column.width - column.indent,
                    column.width - column.indent - indentWrappedLines);
            Cell cell = super.putValue(row, col, lines.get(0));
            for (int i = 1; i < lines.size(); i++) {
                int next = cell.row + 1;
                if (next == rowCount()) {
                    addEmptyRow();
                }
                column.indent += indentWrappedLines;
                try {
                    cell = super.putValue(next, col, lines.get(i));
                } finally {
                    column.indent -= indentWrappedLines;
                }
            }
            return cell;
        }

        /**
         * {@code text} cut at the last space before each line would pass its width ({@code first}
         * for the first line, {@code rest} after); a word wider than that stays whole on its line.
         */
        static List<Text> linesAtSpaces(Text text, int first, int rest) {
            String plain = text.plainString();
            List<Text> out = new ArrayList<>();
            int start = 0;
            int width = first;
            while (plain.length() - start > width) {
                int space = plain.lastIndexOf(' ', start + width);
                if (space <= start) {
                    space = plain.indexOf(' ', start + width);
                    if (space < 0) {
                        break;
                    }
                }
                out.add(text.substring(start, space));
                start = space + 1;
                width = rest;
            }
            out.add(text.substring(start));
            return out;
        }
    }
}
