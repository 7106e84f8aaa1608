/** How long a lane task computes before it lets the thread's other tasks (their store answers) run. */
export const SLICE_MS = 4;

/**
 * A yield point for loops over a request's items: resolves at once while the slice lasts, and after a turn of the
 * event loop (setImmediate) once it is used up. A lane thread works on several requests; without this, one request's
 * thousand items would hold back every await of the others, one project's flood delaying another's small batch.
 */
export function timeSlicer(sliceMs = SLICE_MS): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < sliceMs) return undefined;
    return new Promise<void>((resolve) => setImmediate(() => { since = performance.now(); resolve(); }));
  };
}
