// AssemblyScript helpers for Vigil policy authors. Import them as `@vigil/plugin-sdk/assembly`; build a policy
// with `vigil policy build FILE.ts`. The ABI they implement is described in sandbox/wasm/README.md.
export { JsonKind, JsonDocument } from "./json-document";
export { JsonWriter, quoteJson } from "./json-writer";
export { inputBytes, inputText, outputText, outputJson } from "./output";
export { decodeBase64Url, decodeBase64UrlText } from "./base64url";
export { BodyField, BodyFieldCursor } from "./body-fields";
export { PolicyView } from "./policy-view";
export { Decision } from "./decision";
export { readViews, decisionsJson, writeDecisions, runPolicy } from "./policy";
