package dev.agentwarden.install;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.host.augment.AugmentHost;
import dev.agentwarden.host.claude.ClaudeHosts;
import dev.agentwarden.host.cline.ClineHost;
import dev.agentwarden.host.codex.CodexHost;
import dev.agentwarden.host.copilot.CopilotHost;
import dev.agentwarden.host.cursor.CursorHost;
import dev.agentwarden.host.droid.DroidHost;
import dev.agentwarden.host.gemini.GeminiHost;
import dev.agentwarden.host.kilo.KiloHost;
import dev.agentwarden.host.opencode.OpenCodeHost;
import dev.agentwarden.host.qwen.QwenHost;
import dev.agentwarden.host.windsurf.WindsurfHost;
import dev.agentwarden.install.augment.AugmentSetup;
import dev.agentwarden.install.claude.ClaudeSetups;
import dev.agentwarden.install.cline.ClineSetup;
import dev.agentwarden.install.codex.CodexSetup;
import dev.agentwarden.install.copilot.CopilotSetup;
import dev.agentwarden.install.cursor.CursorSetup;
import dev.agentwarden.install.droid.DroidSetup;
import dev.agentwarden.install.gemini.GeminiSetup;
import dev.agentwarden.install.kilo.KiloSetup;
import dev.agentwarden.install.opencode.OpenCodeSetup;
import dev.agentwarden.install.qwen.QwenSetup;
import dev.agentwarden.install.windsurf.WindsurfSetup;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * Every host's {@link HostSetup}, keyed by the host's id, in {@link Hosts#ALL}'s order. Like the host
 * registry it is lazy: {@link #of} builds only the setup asked for.
 */
public final class HostSetups {
    private HostSetups() {
    }

    /** Every host's setup, in {@link Hosts#ALL}'s order, each built when first read. */
    public static final List<HostSetup> ALL = new Registry();

    private static final class Registry extends AbstractList<HostSetup> implements RandomAccess {
        @Override
        public HostSetup get(int index) {
            return of(Hosts.ALL.get(index));
        }

        @Override
        public int size() {
            return Hosts.ALL.size();
        }
    }

    /** The setup of {@code host}. */
    public static HostSetup of(Host host) {
        return byId(host.id());
    }

    /** The setup of the host with this id (or alias id), or {@code null} when Warden has no adapter for it. */
    public static HostSetup byId(String id) {
        if (id == null) {
            return null;
        }
        switch (id) {
            case ClaudeHosts.CLAUDE_ID: return ClaudeSetups.CLAUDE;
            case ClaudeHosts.COWORK_ID: return ClaudeSetups.COWORK;
            case CodexHost.ID: return CodexSetup.CODEX;
            case CopilotHost.ID: return CopilotSetup.COPILOT;
            case ClineHost.ID: return ClineSetup.CLINE;
            case GeminiHost.ID: return GeminiSetup.GEMINI;
            case QwenHost.ID: return QwenSetup.QWEN;
            case CursorHost.ID: return CursorSetup.CURSOR;
            case WindsurfHost.ID: return WindsurfSetup.WINDSURF;
            case AugmentHost.ID: return AugmentSetup.AUGMENT;
            case OpenCodeHost.ID: return OpenCodeSetup.OPENCODE;
            case KiloHost.ID: return KiloSetup.KILO;
            case DroidHost.ID:
            case DroidHost.ALIAS: return DroidSetup.DROID;
            default: return null;
        }
    }
}
