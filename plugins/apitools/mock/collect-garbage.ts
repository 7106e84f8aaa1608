// A full garbage collection, run after `POST /__vigil/reset`. The reset drops every item at once, and V8 keeps the old
// generation's pages until its next full collection, which an idle mock may not reach for a long time: without this,
// a reset gives nothing back to the system. Setting `--expose-gc` at run time only makes the function reachable (as
// jest's leak detector does); it sizes nothing. A full collection of a bounded store (--max-bytes) takes some tens of
// milliseconds, on an explicit request, after its answer is sent.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
