// Applies a WASM policy's decision on top of the YAML decision. The result can only be narrower: more parts
// restricted, more values redacted, more labels. Nothing the YAML policy restricts, redacts or labels is undone.
import { compileJsonPath, type CompiledJsonPath } from './compile-json-path.js';
import type { RouteDecision } from './merge.js';
import type { WasmDecision } from './wasm-decision.js';

// Guest paths repeat across requests (a card-number policy returns the same few paths); compile each once.
const PATH_CACHE_LIMIT = 4096;
const pathCache = new Map<string, CompiledJsonPath>();

/** Compiles a JSON path returned by a WASM policy. Throws a PolicyError when it is not a valid path. */
export function compileWasmJsonPath(expression: string): CompiledJsonPath {
  let compiled = pathCache.get(expression);
  if (!compiled) {
    compiled = compileJsonPath(expression, 'wasm policy output redact.json_fields');
    if (pathCache.size >= PATH_CACHE_LIMIT) pathCache.clear();
    pathCache.set(expression, compiled);
  }
  return compiled;
}

function isEmpty(wasm: WasmDecision): boolean {
  return !wasm.restrict?.length && !wasm.redact?.headers?.length && !wasm.redact?.query_params?.length &&
    !wasm.redact?.json_fields?.length;
}

/**
 * The YAML decision narrowed by `wasm`. Returns `yaml` itself when `wasm` adds nothing to it, otherwise a new frozen
 * decision (RouteDecision objects are shared and cached: never mutated). Throws when a JSON path does not compile;
 * createWasmPolicy has already rejected such output as invalid.
 */
export function narrowDecision(yaml: RouteDecision, wasm: WasmDecision): RouteDecision {
  if (isEmpty(wasm)) return yaml;
  const restrict = new Set(wasm.restrict ?? []);
  const redactHeaders = new Set(yaml.redactHeaders);
  for (const h of wasm.redact?.headers ?? []) redactHeaders.add(h.toLowerCase());
  const redactQuery = new Set(yaml.redactQuery);
  for (const q of wasm.redact?.query_params ?? []) redactQuery.add(q.toLowerCase());
  const jsonFields = [...yaml.jsonFields];
  const known = new Set(jsonFields.map((p) => p.expression));
  for (const expression of wasm.redact?.json_fields ?? []) {
    if (known.has(expression)) continue;
    known.add(expression);
    jsonFields.push(compileWasmJsonPath(expression));
  }
  return Object.freeze({
    ...yaml,
    // `&&`: a part the YAML policy does not capture stays uncaptured whatever the guest says.
    captureRequestBody: yaml.captureRequestBody && !restrict.has('request_body'),
    captureResponseBody: yaml.captureResponseBody && !restrict.has('response_body'),
    captureHeaders: yaml.captureHeaders && !restrict.has('headers'),
    redactHeaders,
    redactQuery,
    jsonFields: Object.freeze(jsonFields),
  });
}

/**
 * The request's label values with the guest's labels added. A label that already has a value keeps it: a guest
 * can fill a label the YAML policy left empty (its header was absent) but never replace or remove one.
 */
export function narrowLabels(labels: Readonly<Record<string, string>>, wasm: WasmDecision): Record<string, string> {
  const out: Record<string, string> = { ...labels };
  for (const [name, value] of Object.entries(wasm.labels ?? {})) {
    // defineProperty: a label named `__proto__` is a plain key here, not a prototype swap.
    if (!Object.prototype.hasOwnProperty.call(out, name)) {
      Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  return out;
}

/** Both halves at once: the narrowed decision and the request's labels. */
export function narrow(
  yaml: RouteDecision,
  labels: Readonly<Record<string, string>>,
  wasm: WasmDecision,
): { decision: RouteDecision; labels: Record<string, string> } {
  return { decision: narrowDecision(yaml, wasm), labels: narrowLabels(labels, wasm) };
}

/**
 * The decision for requests whose WASM policy call failed (trap, timeout, memory, invalid output): bodies are not
 * kept, everything else stays as the YAML policy says. `failClosedReason` gives the text for the record.
 */
export function failClosedDecision(yaml: RouteDecision): RouteDecision {
  if (!yaml.captureRequestBody && !yaml.captureResponseBody) return yaml;
  return Object.freeze({ ...yaml, captureRequestBody: false, captureResponseBody: false });
}

/** What a record whose policy call failed says about its missing bodies (GovernedRecord.dropped_reason). */
export function failClosedReason(reason: string): string {
  return `wasm policy failed (${reason}): bodies not kept`;
}
