// What a policy returns for one view.
import { JsonWriter } from "./json-writer";

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
