package dev.agentwarden.release;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * The outcome of verifying a release manifest against a trust root at one fixed time.
 *
 * @param trusted         whether the manifest may be used
 * @param reason          when untrusted, a stable code ({@code manifest_expired},
 *                        {@code manifest_rollback}, {@code signature_threshold_not_met}, ...), else {@code null}
 * @param detail          a sentence for people: what failed and the values involved
 * @param at              the verification time every expiry was judged at
 * @param rootVersion     version of the root the manifest was checked against, 0 if none was reached
 * @param manifestVersion the manifest's version when its signatures held, else 0
 * @param expires         the manifest's expiry when read, else {@code null}
 * @param signers         key ids whose signatures over the manifest verified
 * @param entries         the registered releases when trusted, else empty
 */
public record Verification(boolean trusted, String reason, String detail, Instant at, long rootVersion,
                           long manifestVersion, Instant expires, Set<String> signers,
                           List<ManifestEntry> entries) {

    static Verification untrusted(TrustFailure failure, String detail, Instant at, long rootVersion,
                                  long manifestVersion, Instant expires, Set<String> signers) {
        return new Verification(false, failure.code(), detail, at, rootVersion, manifestVersion, expires,
                Set.copyOf(signers), List.of());
    }
}
