// A scan in its own thread: the walk and the hashing use blocking calls here, and a regular expression that
// backtracks without end holds only this thread (the main thread ends it at the deadline). One worker per scan.
import { parentPort, workerData } from 'node:worker_threads';
import { DuplicateFinder } from './duplicates.js';
import { FolderSizes } from './folder-sizes.js';
import { NameSearch } from './name-search.js';
import { OldFiles } from './old-files.js';
import type { ScanCounts, WorkerInput, WorkerMessage } from './scan-types.js';
import { newCounts, walkTrees, WalkGuard } from './tree-walk.js';

function post(message: WorkerMessage): void {
  parentPort!.postMessage(message);
}

function run(input: WorkerInput): void {
  const { params, limits } = input;
  const guard = new WalkGuard(limits, input.cancel);
  const counts: ScanCounts = newCounts();
  let current = '';
  let lastPost = Date.now();
  let partial: () => unknown = () => null;
  // Progress is posted from inside the walk, at most every progressMs: the walk never yields to this thread's loop.
  const maybePost = (): void => {
    const now = Date.now();
    if (now - lastPost < input.progressMs) return;
    lastPost = now;
    post({ type: 'progress', counts: { ...counts }, current, partial: partial() });
  };
  const onProgress = (path: string): void => { current = path; maybePost(); };

  switch (params.kind) {
    case 'sizes': {
      const sizes = new FolderSizes();
      partial = () => sizes.partial();
      walkTrees([params.root], limits, guard, counts, sizes, { stat: true, onProgress });
      post({ type: 'done', counts, stop: guard.stop, result: sizes.tree() });
      return;
    }
    case 'duplicates': {
      const finder = new DuplicateFinder(params, guard);
      partial = () => finder.partial();
      finder.onChunk = maybePost;
      walkTrees([params.root], limits, guard, counts, finder, { stat: true, onProgress });
      if (!guard.stop) finder.compare(maybePost, () => { counts.errors++; });
      else finder.abandon();
      post({ type: 'done', counts, stop: guard.stop, result: finder.result() });
      return;
    }
    case 'old-files': {
      const old = new OldFiles(params);
      partial = () => old.partial();
      walkTrees([params.root], limits, guard, counts, old, { stat: true, onProgress });
      post({ type: 'done', counts, stop: guard.stop, result: old.result() });
      return;
    }
    case 'search': {
      const search = new NameSearch(params, () => guard.halt('results'));
      partial = () => ({ hits: search.hits.slice(0, 200) });
      walkTrees(params.roots, limits, guard, counts, search, { stat: false, onProgress });
      post({ type: 'done', counts, stop: guard.stop, result: { hits: search.hits } });
      return;
    }
  }
}

try {
  run(workerData as WorkerInput);
} catch (err) {
  post({ type: 'failed', message: (err as Error).message });
}
