package dev.vigil.client;

/**
 * What {@code onError} receives: a stable code, VIGIL_ERR_CLIENT_&lt;KEY&gt;, with the same meaning as the Node client's
 * (docs/errors.md lists them), a message that says what happened, how many items it cost, and the HTTP status Vigil
 * answered when the error is an answer (0 otherwise). Never thrown into the application.
 */
public record VigilError(String code, String message, int items, int status) {
    public static final String CONFIG = "VIGIL_ERR_CLIENT_CONFIG";
    public static final String AUTH = "VIGIL_ERR_CLIENT_AUTH";
    public static final String BATCH_REFUSED = "VIGIL_ERR_CLIENT_BATCH_REFUSED";
    public static final String TOO_LARGE = "VIGIL_ERR_CLIENT_TOO_LARGE";
    public static final String ITEMS_REJECTED = "VIGIL_ERR_CLIENT_ITEMS_REJECTED";
    public static final String RETRIES_EXHAUSTED = "VIGIL_ERR_CLIENT_RETRIES_EXHAUSTED";
    public static final String BUFFER_FULL = "VIGIL_ERR_CLIENT_BUFFER_FULL";
    public static final String NOT_DELIVERED = "VIGIL_ERR_CLIENT_NOT_DELIVERED";
    public static final String INVALID_ITEM = "VIGIL_ERR_CLIENT_INVALID_ITEM";
    public static final String CLOSED = "VIGIL_ERR_CLIENT_CLOSED";
    public static final String INTERNAL = "VIGIL_ERR_CLIENT_INTERNAL";

    @Override
    public String toString() { return code + ": " + message; }
}
