/**
 * Everything host-specific at runtime: one {@link dev.agentwarden.host.Host} record per host, listed once
 * in {@link dev.agentwarden.host.Hosts#ALL}. Dispatch, the launcher, the default manifest, the
 * manifest's default aliases and inventory read a host's facts from its record; how Warden's hooks get
 * into the host's settings is the host's setup, in {@code dev.agentwarden.install} ({@code install/<name>/}),
 * which reads this package and which this package never names ({@code PackageCyclesTest}). Nothing outside
 * this package and the hosts' setup folders names a host id or a host's dot-directory
 * ({@code HostIdsStayInHostTest}, with its short list of named exceptions).
 *
 * <h2>Adding a host</h2>
 * A host is its own sub-package {@code host/<name>/} plus its line in {@code Hosts}' list of ids (its
 * {@code ID} constant) and in {@code Hosts.record} (the record that id builds), and its setup folder
 * {@code install/<name>/} plus its line in {@code install.HostSetups.byId}:
 * <ol>
 *   <li>{@code <Name>Adapter implements HostAdapter}: {@code nativeEventOf} and {@code normalize}
 *       read the host's payload (its key spelling, camelCase or not, is the adapter's business) into
 *       every field of {@link dev.agentwarden.event.HookEvent}; {@code render} writes each
 *       {@link dev.agentwarden.verdict.Verdict} kind in the host's protocol; {@code capability} is
 *       the table of what each native event can do (block, context, ask), and every downgrade
 *       (block to context, ask to block, halt to deny) is data in that table and says so on stderr.</li>
 *   <li>In {@code install/<name>/}: an {@code Installer} per scope the host reads hooks from (the
 *       settings file, the writer for its format, and the exact test for Warden's own entries;
 *       Claude-shaped {@code hooks} files reuse {@code install.claude.ClaudeHooksFile}), and
 *       {@code <Name>Setup}: the {@code install.HostSetup} record (the host's record, its installers and
 *       default scope, and optionally its trust gate, its {@code warden serve} HTTP hook block, and
 *       whether it runs hook commands through a shell).</li>
 *   <li>{@code <Name>Host}: the {@code Host} record: id, display name, adapter, native event names with their canonical events ({@link NativeEvents#of}),
 *       the native events that carry a tool, its {@link ToolNames}, project-directory variables,
 *       output cap, and optionally its training payloads and payload template ({@link Host#with}), the files besides its installers' by which
 *       its hooks could be changed ({@link Host#protecting}, read by {@code protect-warden}), the
 *       files inventory and telemetry read ({@link Host#reading}: its MCP server configurations as
 *       {@link McpConfigLocation}s, its usage records as {@link UsageFileLocation}s, built only when asked),
 *       and how the launcher answers it when Warden cannot run ({@link Host#launching} a
 *       {@link LauncherContract}; then {@code bin/warden __facts --update bin/warden}).</li>
 *   <li>Tests in {@code src/test/java/dev/agentwarden/host/<name>/} (adapter table and rendering) and
 *       {@code src/test/java/dev/agentwarden/install/<name>/} (installer round trip) and golden cases under {@code src/test/resources/golden/<name>/}
 *       from captured real payloads.</li>
 * </ol>
 * {@link Hosts#KNOWN} (the ids manifests may name) takes every id in {@code ALL}.
 * The default manifest then binds its chains for the new host, and its {@code tools} filters take the
 * host's {@link ToolNames} from the registry ({@link Hosts#toolNames}): {@code DefaultManifestTest}
 * fails until its constant is rewritten ({@code -Dwarden.defaultmanifest.write=true}), and
 * {@code HostsTest} until a new project-directory variable is in {@code Hosts}' kept list.
 *
 * <p>A dispatch builds its own host's record only ({@link Hosts#byId}; its adapter and training objects
 * are constructed with it, small, no work done), and no host's setup; {@link Hosts#ALL} builds each
 * record when it is first read. {@code HotPathClassLoadIT} fails when a dispatch loads another
 * host's record.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): Host, HostAdapter,
 * HostResponse, Hosts, LauncherContract, NativeEvents, OwnFile, PayloadTemplate, SetupFileLocation,
 * ToolInputs, ToolNames.
 */
package dev.agentwarden.host;
