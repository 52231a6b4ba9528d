/**
 * Files Warden trusts or writes: OpenSSH's StrictModes ownership rule ({@code OwnedPath}), atomic and
 * locked state writes that follow no link ({@code StateFiles}, {@code AtomicWrite}), and the cache root.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): AtomicWrite, CacheDir,
 * CodedIOException, OwnedPath, StateFiles, UnsafeFileException.
 */
package dev.agentwarden.io;
