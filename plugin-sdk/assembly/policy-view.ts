// One request as a policy sees it, read lazily from the batch document.
import { JsonDocument, JsonKind } from "./json-document";
import { BodyField, BodyFieldCursor } from "./body-fields";

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

  /** The folded path (policies/README.md, "Paths"): `/ADMIN;x/users` arrives as `/admin/users`. */
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
