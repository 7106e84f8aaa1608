import { JsonDocument } from "./json-document";
import { JsonWriter } from "./json-writer";
import { Decision } from "./decision";
import { PolicyView } from "./policy-view";
import { inputBytes, outputJson } from "./output";

// The policy ABI on the guest side: `decide` receives {"views":[…]} and returns {"decisions":[…]}, one decision per
// view, in the same order. See sandbox/wasm/README.md for the full contract.

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
