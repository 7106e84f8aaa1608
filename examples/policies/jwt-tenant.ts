// Example WASM policy: label each request with its tenant, read from the bearer JWT's claims.
//
//   vigil policy build examples/policies/jwt-tenant.ts       # -> examples/policies/jwt-tenant.wasm
//
// The token is decoded, not verified: the label is for grouping telemetry, never for access decisions (the
// upstream verifies tokens). The claim used is the first present of `tenant`, `org`, `sub`. A request that
// already has a `tenant` label (from a YAML `labels` rule) keeps it: policies can only add labels.
import { decodeBase64UrlText, Decision, JsonDocument, JsonKind, PolicyView, runPolicy } from "@vigil/plugin-sdk/assembly";

const CLAIMS: string[] = ["tenant", "org", "sub"];
/** A label value is a metric dimension: keep it short. */
const MAX_LABEL_LENGTH: i32 = 128;

/** The payload segment of `Bearer <header>.<payload>.<signature>`, or null. */
function bearerPayload(authorization: string): string | null {
  if (authorization.length < 7 || authorization.substring(0, 7).toLowerCase() != "bearer ") return null;
  const token = authorization.substring(7).trim();
  const first = token.indexOf(".");
  if (first <= 0) return null;
  const second = token.indexOf(".", first + 1);
  if (second <= first + 1) return null;
  return token.substring(first + 1, second);
}

/** The tenant named by the token's claims, or null when there is no usable token or claim. */
export function tenantOf(authorization: string): string | null {
  const payload = bearerPayload(authorization);
  if (payload == null) return null;
  const json = decodeBase64UrlText(payload);
  if (json == null || json.length == 0 || json.charCodeAt(0) != 0x7b) return null;
  // A client can send any token: a malformed one must be skipped, not trap the whole batch.
  const claims = JsonDocument.tryParseText(json);
  if (claims == null) return null;
  for (let i = 0; i < CLAIMS.length; i++) {
    const claim = claims.get(claims.root, CLAIMS[i]);
    const kind = claims.kind(claim);
    if (kind == JsonKind.String || kind == JsonKind.Number) {
      const value = claims.text(claim);
      if (value.length > 0 && value.length <= MAX_LABEL_LENGTH) return value;
    }
  }
  return null;
}

function decideOne(view: PolicyView): Decision {
  const decision = new Decision();
  if (view.label("tenant") != null) return decision;
  const authorization = view.header("authorization");
  if (authorization == null) return decision;
  const tenant = tenantOf(authorization);
  if (tenant != null) decision.setLabel("tenant", tenant);
  return decision;
}

export function decide(): i32 {
  return runPolicy(decideOne);
}
