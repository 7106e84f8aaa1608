// AssemblyScript helpers for Vigil policy authors. Import them as `@vigil/plugin-sdk/assembly`; build a policy
// with `vigil policy build FILE.ts`. The ABI they implement is described in sandbox/wasm/README.md.
export { JsonKind, JsonDocument, JsonWriter, quoteJson } from "./json";
export { inputBytes, inputText, outputText, outputJson } from "./output";
export { decodeBase64Url, decodeBase64UrlText } from "./base64url";
export { BodyField, BodyFieldCursor, PolicyView, Decision, readViews, decisionsJson, writeDecisions, runPolicy } from "./policy";
