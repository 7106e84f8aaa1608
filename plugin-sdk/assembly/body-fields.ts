// Body fields of a view: string and number leaves of the JSON bodies, keyed by path (see the ABI).
import { JsonDocument, JsonKind } from "./json-document";

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
