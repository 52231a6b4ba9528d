package dev.agentwarden.release;

import dev.agentwarden.json.Fields;

/**
 * Why a release manifest is not trusted. The codes are stable: they reach reports and the integrity
 * gate as {@code ReleaseLookup.untrusted(code)}.
 */
enum TrustFailure implements Fields.Failure<TrustFailure.Untrusted> {
    ROOT_UNREADABLE("root_unreadable"),
    ROOT_MALFORMED("root_malformed"),
    ROOT_WRONG_TYPE("root_wrong_type"),
    ROOT_SIGNATURE_THRESHOLD_NOT_MET("root_signature_threshold_not_met"),
    ROOT_ROTATION_VERSION_MISMATCH("root_rotation_version_mismatch"),
    ROOT_ROTATION_OLD_THRESHOLD_NOT_MET("root_rotation_old_threshold_not_met"),
    ROOT_ROTATION_NEW_THRESHOLD_NOT_MET("root_rotation_new_threshold_not_met"),
    ROOT_EXPIRED("root_expired"),
    ROOT_ROLLBACK("root_rollback"),
    ROOT_REPLACED("root_replaced"),
    MANIFEST_UNREADABLE("manifest_unreadable"),
    MANIFEST_MALFORMED("manifest_malformed"),
    MANIFEST_WRONG_PAYLOAD_TYPE("manifest_wrong_payload_type"),
    SIGNATURE_THRESHOLD_NOT_MET("signature_threshold_not_met"),
    MANIFEST_WRONG_TYPE("manifest_wrong_type"),
    MANIFEST_SUBJECT_MISMATCH("manifest_subject_mismatch"),
    MANIFEST_DUPLICATE_ENTRY("manifest_duplicate_entry"),
    MANIFEST_EXPIRED("manifest_expired"),
    MANIFEST_ROLLBACK("manifest_rollback"),
    STATE_UNREADABLE("release_state_unreadable"),
    /** The floor file or its directory is a link, not this user's, or writable by others. */
    STATE_UNTRUSTED("release_state_untrusted");

    private final String code;

    TrustFailure(String code) {
        this.code = code;
    }

    String code() {
        return code;
    }

    /** This failure as an exception that unwinds verification (no stack trace: it is an outcome). */
    @Override
    public Untrusted because(String detail) {
        return new Untrusted(this, detail);
    }

    /** A verification step's negative outcome, carried to the one place that turns it into a result. */
    static final class Untrusted extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient TrustFailure failure;

        private Untrusted(TrustFailure failure, String detail) {
            super(detail, null, false, false);
            this.failure = failure;
        }

        TrustFailure failure() {
            return failure;
        }
    }
}
