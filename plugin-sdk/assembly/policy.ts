import { JsonDocument, JsonKind, JsonWriter } from "./json";
import { inputBytes, outputJson } from "./output";

// The policy ABI on the guest side: `decide` receives {"views":[…]} and returns {"decisions":[…]}, one decision per
// view, in the same order. See sandbox/wasm/README.md for the full contract.

/**
 * A string or number leaf of a request or response JSON body, offered so a policy can name exact paths.
 * Read lazily: `path` and `value` are decoded on first access, and `valueByteLength` / `valueByte` let a policy
 * skip most fields without decoding them at all (a batch carries dozens of fields per request).
 */
export class BodyField {
  private doc: JsonDocument;
  private pathNode: i32;
  private valueNode: i32;
  private response: bool;
  private cachedPath: string | null = null;
  private cachedValue: string | null = null;

  constructor(doc: JsonDocument, pathNode: i32, valueNode: i32, response: bool) {
    this.doc = doc;
    this.pathNode = pathNode;
    this.valueNode = valueNode;
    this.response = response;
  }

  /** A path in the policy language's form, e.g. `$.payment.card`; pass it back to `redactJsonField`. */
  get path(): string {
    let path = this.cachedPath;
    if (path == null) {
      path = this.doc.text(this.pathNode);
      this.cachedPath = path;
    }
    return path;
  }

  /** The leaf's value; for a number, its literal digits. */
  get value(): string {
    let value = this.cachedValue;
    if (value == null) {
      value = this.doc.text(this.valueNode);
      this.cachedValue = value;
    }
    return value;
  }

  get isNumber(): bool {
    return this.doc.isNumber(this.valueNode);
  }

  /** `request` or `response`. */
  get body(): string {
    return this.response ? "response" : "request";
  }

  /** Length of the value as sent, in UTF-8 bytes (escapes count as written). No decoding. */
  get valueByteLength(): i32 {
    return this.doc.rawLength(this.valueNode);
  }

  /** Byte `index` of the value as sent, or -1. No decoding. */
  valueByte(index: i32): i32 {
    return this.doc.rawByte(this.valueNode, index);
  }
}

/**
 * Walks the body fields of one view without allocating an object per field: the fast way through dozens of fields.
 *
 *     const it = view.bodyFieldCursor();
 *     while (it.next()) if (it.valueByteLength >= 12) check(it.value, it.path);
 */
export class BodyFieldCursor {
  private doc: JsonDocument;
  private request: i32;
  private response: i32;
  private inResponse: bool = false;
  /** Key node of the current member, -1 before the first. */
  private key: i32 = -1;
  private left: i32;

  constructor(doc: JsonDocument, request: i32, response: i32) {
    this.doc = doc;
    this.request = request;
    this.response = response;
    this.left = doc.kind(request) == JsonKind.Object ? doc.count(request) : 0;
  }

  /** Moves to the next string or number field; false when there is none. */
  next(): bool {
    const doc = this.doc;
    while (true) {
      if (this.left == 0) {
        if (this.inResponse || doc.kind(this.response) != JsonKind.Object) return false;
        this.inResponse = true;
        this.key = -1;
        this.left = doc.count(this.response);
        continue;
      }
      this.key = this.key < 0 ? doc.first(this.inResponse ? this.response : this.request) : doc.nextMember(this.key);
      this.left--;
      const value = this.key + 1;
      if (doc.isString(value) || doc.isNumber(value)) return true;
    }
  }

  get path(): string { return this.doc.text(this.key); }
  get value(): string { return this.doc.text(this.key + 1); }
  get isNumber(): bool { return this.doc.isNumber(this.key + 1); }
  get body(): string { return this.inResponse ? "response" : "request"; }
  get valueByteLength(): i32 { return this.doc.rawLength(this.key + 1); }
  valueByte(index: i32): i32 { return this.doc.rawByte(this.key + 1, index); }

  /** The current field as an object that stays valid after `next`. */
  field(): BodyField {
    return new BodyField(this.doc, this.key, this.key + 1, this.inResponse);
  }
}

/**
 * One request as the policy sees it. Fields are read from the batch lazily: a policy pays only for what it reads.
 */
export class PolicyView {
  private doc: JsonDocument;
  private node: i32;
  private cachedHeaders: Map<string, string> | null = null;
  private cachedQuery: Map<string, string[]> | null = null;
  private cachedLabels: Map<string, string> | null = null;
  private cachedRules: string[] | null = null;
  private cachedFields: BodyField[] | null = null;

  constructor(doc: JsonDocument, node: i32) {
    this.doc = doc;
    this.node = node;
  }

  get method(): string {
    return this.doc.text(this.doc.get(this.node, "method"));
  }

  /** Normalised path. */
  get path(): string {
    return this.doc.text(this.doc.get(this.node, "path"));
  }

  /** Response status, 0 when unknown. */
  get status(): i32 {
    const n = this.doc.get(this.node, "status");
    return this.doc.isNumber(n) ? <i32>this.doc.number(n) : 0;
  }

  /** A header's value by name (header names in views are lower-case), or null. Does not build the map. */
  header(name: string): string | null {
    const headers = this.doc.get(this.node, "headers");
    let v = this.doc.get(headers, name);
    if (v < 0) {
      const lower = name.toLowerCase();
      if (lower != name) v = this.doc.get(headers, lower);
    }
    return this.doc.isString(v) ? this.doc.text(v) : null;
  }

  /** Lower-case header name to value. */
  get headers(): Map<string, string> {
    let map = this.cachedHeaders;
    if (map == null) {
      map = readStringMap(this.doc, this.doc.get(this.node, "headers"));
      this.cachedHeaders = map;
    }
    return map;
  }

  /** The first value of a query parameter, or null. */
  queryParam(name: string): string | null {
    const v = this.doc.get(this.doc.get(this.node, "query"), name);
    if (this.doc.isString(v)) return this.doc.text(v);
    const first = this.doc.at(v, 0);
    return this.doc.isString(first) ? this.doc.text(first) : null;
  }

  /** Every value of each query parameter, in order. */
  get query(): Map<string, string[]> {
    let map = this.cachedQuery;
    if (map == null) {
      map = readQuery(this.doc, this.doc.get(this.node, "query"));
      this.cachedQuery = map;
    }
    return map;
  }

  /** A label the YAML policy already set, or null. A decision cannot change these. */
  label(name: string): string | null {
    const v = this.doc.get(this.doc.get(this.node, "labels"), name);
    return this.doc.isString(v) ? this.doc.text(v) : null;
  }

  get labels(): Map<string, string> {
    let map = this.cachedLabels;
    if (map == null) {
      map = readStringMap(this.doc, this.doc.get(this.node, "labels"));
      this.cachedLabels = map;
    }
    return map;
  }

  get matchedRules(): string[] {
    let list = this.cachedRules;
    if (list == null) {
      list = new Array<string>();
      const rules = this.doc.get(this.node, "matched_rules");
      const n = this.doc.count(rules);
      let e = this.doc.first(rules);
      for (let i = 0; i < n; i++) {
        if (this.doc.isString(e)) list.push(this.doc.text(e));
        e = this.doc.next(e);
      }
      this.cachedRules = list;
    }
    return list;
  }

  /** A cursor over the body fields, request body first (bounded by the host; see the ABI). */
  bodyFieldCursor(): BodyFieldCursor {
    const fields = this.doc.get(this.node, "body_fields");
    return new BodyFieldCursor(this.doc, this.doc.get(fields, "request"), this.doc.get(fields, "response"));
  }

  /** The body fields as a list (one object per field; `bodyFieldCursor` allocates none). */
  get bodyFields(): BodyField[] {
    let list = this.cachedFields;
    if (list == null) {
      list = new Array<BodyField>();
      const it = this.bodyFieldCursor();
      while (it.next()) list.push(it.field());
      this.cachedFields = list;
    }
    return list;
  }
}

/**
 * What a policy adds for one view. Everything here only narrows: restrictions and redactions are added to the YAML
 * decision, and labels are added only where the YAML policy set none of that name.
 */
export class Decision {
  restrictRequestBody: bool = false;
  restrictResponseBody: bool = false;
  restrictHeaders: bool = false;
  // Lists are created on first use: most decisions in a batch are empty, and each list is two allocations.
  private headerRedactions: string[] | null = null;
  private queryRedactions: string[] | null = null;
  private fieldRedactions: string[] | null = null;
  private labelNames: string[] | null = null;
  private labelValues: string[] | null = null;

  /** Capture neither the request body nor the response body. */
  restrictBodies(): Decision {
    this.restrictRequestBody = true;
    this.restrictResponseBody = true;
    return this;
  }

  redactHeader(name: string): Decision {
    let list = this.headerRedactions;
    if (list == null) { list = new Array<string>(); this.headerRedactions = list; }
    list.push(name.toLowerCase());
    return this;
  }

  redactQueryParam(name: string): Decision {
    let list = this.queryRedactions;
    if (list == null) { list = new Array<string>(); this.queryRedactions = list; }
    list.push(name);
    return this;
  }

  /** `path` in the policy language's form: `$.a.b`, `$.*.x`, `$.**.x`, or a `BodyField.path`. */
  redactJsonField(path: string): Decision {
    let list = this.fieldRedactions;
    if (list == null) { list = new Array<string>(); this.fieldRedactions = list; }
    if (!list.includes(path)) list.push(path);
    return this;
  }

  /** Label names must match `[A-Za-z_][A-Za-z0-9_]*`; a later value for the same name replaces an earlier one. */
  setLabel(name: string, value: string): Decision {
    let names = this.labelNames;
    let values = this.labelValues;
    if (names == null || values == null) {
      names = new Array<string>();
      values = new Array<string>();
      this.labelNames = names;
      this.labelValues = values;
    }
    const at = names.indexOf(name);
    if (at >= 0) {
      values[at] = value;
    } else {
      names.push(name);
      values.push(value);
    }
    return this;
  }

  writeTo(w: JsonWriter): void {
    w.raw("{");
    let first = true;
    if (this.restrictRequestBody || this.restrictResponseBody || this.restrictHeaders) {
      const parts = new Array<string>();
      if (this.restrictRequestBody) parts.push("request_body");
      if (this.restrictResponseBody) parts.push("response_body");
      if (this.restrictHeaders) parts.push("headers");
      w.raw("\"restrict\":").stringArray(parts);
      first = false;
    }
    const headers = this.headerRedactions;
    const query = this.queryRedactions;
    const fields = this.fieldRedactions;
    if (headers != null || query != null || fields != null) {
      if (!first) w.raw(",");
      w.raw("\"redact\":{");
      let inner = true;
      if (headers != null) { w.raw("\"headers\":").stringArray(headers); inner = false; }
      if (query != null) {
        if (!inner) w.raw(",");
        w.raw("\"query_params\":").stringArray(query);
        inner = false;
      }
      if (fields != null) {
        if (!inner) w.raw(",");
        w.raw("\"json_fields\":").stringArray(fields);
      }
      w.raw("}");
      first = false;
    }
    const names = this.labelNames;
    const values = this.labelValues;
    if (names != null && values != null) {
      if (!first) w.raw(",");
      w.raw("\"labels\":{");
      for (let i = 0; i < names.length; i++) {
        if (i > 0) w.raw(",");
        w.string(names[i]).raw(":").string(values[i]);
      }
      w.raw("}");
    }
    w.raw("}");
  }
}

function readStringMap(doc: JsonDocument, node: i32): Map<string, string> {
  const map = new Map<string, string>();
  const n = doc.count(node);
  if (doc.kind(node) != JsonKind.Object) return map;
  let k = doc.first(node);
  for (let i = 0; i < n; i++) {
    const v = k + 1;
    if (doc.isString(v) || doc.isNumber(v)) map.set(doc.text(k), doc.text(v));
    k = doc.nextMember(k);
  }
  return map;
}

function readQuery(doc: JsonDocument, node: i32): Map<string, string[]> {
  const map = new Map<string, string[]>();
  if (doc.kind(node) != JsonKind.Object) return map;
  const n = doc.count(node);
  let k = doc.first(node);
  for (let i = 0; i < n; i++) {
    const v = k + 1;
    const list = new Array<string>();
    if (doc.isString(v)) list.push(doc.text(v));
    const m = doc.count(v);
    let e = doc.first(v);
    for (let j = 0; j < m; j++) {
      if (doc.isString(e)) list.push(doc.text(e));
      e = doc.next(e);
    }
    map.set(doc.text(k), list);
    k = doc.nextMember(k);
  }
  return map;
}

// One document per instance, reused across calls: its tape keeps its capacity, so a warm policy parses a batch
// without allocating per value.
const batch = new JsonDocument();

/** Parses the call input into views. */
export function readViews(): PolicyView[] {
  if (!batch.load(inputBytes())) throw new Error("the views batch is not JSON: " + batch.error);
  const views = batch.get(batch.root, "views");
  const out = new Array<PolicyView>();
  const n = batch.count(views);
  let e = batch.first(views);
  for (let i = 0; i < n; i++) {
    out.push(new PolicyView(batch, e));
    e = batch.next(e);
  }
  return out;
}

/** The JSON text of a decisions batch. */
export function decisionsJson(decisions: Decision[]): string {
  const w = new JsonWriter();
  w.raw("{\"decisions\":[");
  for (let i = 0; i < decisions.length; i++) {
    if (i > 0) w.raw(",");
    decisions[i].writeTo(w);
  }
  w.raw("]}");
  return w.toString();
}

/** Writes the call output: one decision per view, in view order. */
export function writeDecisions(decisions: Decision[]): void {
  outputJson(decisionsJson(decisions));
}

/**
 * The usual body of a policy's `decide` export: reads the batch, calls `decideOne` for each view, writes the
 * decisions. `decideOne` must be a top-level function (AssemblyScript has no closures).
 *
 *     export function decide(): i32 { return runPolicy(decideOne); }
 */
export function runPolicy(decideOne: (view: PolicyView) => Decision): i32 {
  const views = readViews();
  const decisions = new Array<Decision>();
  for (let i = 0; i < views.length; i++) decisions.push(decideOne(views[i]));
  writeDecisions(decisions);
  return 0;
}
