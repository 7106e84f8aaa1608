// The configs of the governance corpus: each is the text of a vigil config file (`rules`, and `capture` where a case
// needs a small `max_body_bytes`). Few on purpose: a run through the gateway starts one `vigil run` per config.

/** Path spellings and the fold, globs and methods. */
const paths = `rules:
  - name: all
    match: { path: /** }
  - name: admin
    match: { path: /admin/** }
    restrict: [request_body]
    redact: { headers: [X-Admin-Key] }
  - name: payments
    match: { path: /api/payments/** }
    redact: { json_fields: [$.card] }
  - name: charge
    match: { path: /api/payments/charge }
    redact: { query_params: [cvc] }
  - name: profile
    match: { path: /api/*/profile }
  - name: files
    match: { path: /files/*.json }
  - name: versions
    match: { path: /v*/users/** }
  - name: writes
    match: { path: /api/orders/**, methods: [post, PUT] }
    redact: { json_fields: [$.secret] }
  - name: vault
    match: { path: /vault/** }
    restrict: [request_body, response_body, headers]
`;

/** JSON paths in bodies. */
const json = `rules:
  - name: all
    match: { path: /** }
  - name: exact
    match: { path: /json/exact/** }
    redact: { json_fields: [$.password, $.a.b] }
  - name: star
    match: { path: /json/star/** }
    redact: { json_fields: [$.*.x] }
  - name: deep
    match: { path: /json/deep/** }
    redact: { json_fields: [$.**.card] }
  - name: arrays
    match: { path: /json/arrays/** }
    redact: { json_fields: [$.items.*.card, "$.list[1]", $.matrix.*.*.v] }
  - name: quoted
    match: { path: /json/quoted/** }
    redact: { json_fields: ["$['odd.key']", "$['a b'].c"] }
  - name: whole
    match: { path: /json/whole/** }
    redact: { json_fields: [$] }
  - name: combined
    match: { path: /json/combined/** }
    redact: { json_fields: [$.a.**.b.*] }
`;

/** Header and query parameter redaction. */
const names = `rules:
  - name: all
    match: { path: /** }
    redact: { headers: [Authorization, x-api-key, COOKIE, Set-Cookie], query_params: [token, API_KEY] }
  - name: more
    match: { path: /more/** }
    redact: { headers: [X-Extra], query_params: [extra] }
`;

/** restrict, sample, keep_errors, labels, meter. */
const capture = `rules:
  - name: all
    match: { path: /** }
    labels: { tenant: header:X-Tenant, team: header:x-team }
    redact: { headers: [X-Secret] }
  - name: no-request-body
    match: { path: /restrict/request/** }
    restrict: [request_body]
  - name: no-response-body
    match: { path: /restrict/response/** }
    restrict: [response_body]
  - name: no-headers
    match: { path: /restrict/headers/** }
    restrict: [headers]
  - name: nothing
    match: { path: /restrict/all/** }
    restrict: [request_body, response_body, headers]
  - name: never
    match: { path: /sample/zero/** }
    sample: 0
  - name: errors
    match: { path: /sample/errors/** }
    sample: 0
    keep_errors: true
  - name: always
    match: { path: /sample/zero/always/** }
    sample: 1
  - name: secret-label
    match: { path: /labels/secret/** }
    labels: { owner: header:X-Secret }
  - name: later-label
    match: { path: /labels/later/** }
    labels: { tenant: header:X-Other-Tenant }
  - name: metered
    match: { path: /meter/** }
    meter: { tokens: $.usage.total_tokens }
  - name: metered-deep
    match: { path: /meter/deep/** }
    meter: { tokens: $.**.tokens }
  - name: metered-redacted
    match: { path: /meter/redacted/** }
    redact: { json_fields: [$.usage] }
  - name: metered-unsampled
    match: { path: /meter/unsampled/** }
    sample: 0
`;

/** Detectors (`redact.detect`). */
const detect = `rules:
  - name: all
    match: { path: /** }
  - name: detect
    match: { path: /detect/** }
    redact: { detect: [card_number, iban, email, jwt, aws_access_key_id, private_key, bearer_token, api_key, us_ssn] }
  - name: cards-only
    match: { path: /cards/** }
    redact: { detect: [card_number] }
`;

/** Body kinds: text, binary, encoded, malformed; with and without json_fields over them. */
const bodies = `rules:
  - name: all
    match: { path: /** }
  - name: redacted
    match: { path: /redacted/** }
    redact: { json_fields: [$.password] }
`;

/** capture.max_body_bytes truncation. */
const small = `rules:
  - name: all
    match: { path: /** }
  - name: redacted
    match: { path: /redacted/** }
    redact: { json_fields: [$.password] }
capture: { max_body_bytes: 64 }
`;

/** Config name → config text. */
export const CONFIGS: Record<string, string> = { paths, json, names, capture, detect, bodies, small };
