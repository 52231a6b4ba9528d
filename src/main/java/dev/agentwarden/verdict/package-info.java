/**
 * The one verdict type: what a dispatch decided, independent of any host. The dispatcher produces
 * it; host adapters render it. Depends on nothing else in Warden.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): Verdict.
 */
package dev.agentwarden.verdict;
