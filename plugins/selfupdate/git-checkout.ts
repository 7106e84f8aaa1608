// What a git checkout is now, read with git (never changed here): the branch, its upstream, the running commit and
// whether anything is uncommitted. Update now refuses on what this finds before it fetches or merges anything.
import { runStep } from './run-step.js';

/** Time limit of each read-only git call. */
const READ_MS = 20_000;

export interface CheckoutState {
  commit: string | null;
  /** The branch checked out; null on a detached HEAD. */
  branch: string | null;
  /** The branch's upstream (`origin/main`); null when it has none. */
  upstream: string | null;
  /** The remote the upstream lies on (`origin`). */
  remote: string | null;
  /** Tracked files with uncommitted changes (staged or not), the first few. */
  changed: string[];
}

/** Runs git in `root` and answers its trimmed stdout (untrimmed with `raw`), or null when git exits non-zero. */
export async function gitRead(root: string, args: string[], o: { raw?: boolean } = {}): Promise<string | null> {
  const r = await runStep('git', args, { cwd: root, timeoutMs: READ_MS, keepBytes: 256 * 1024 });
  return r.code === 0 ? (o.raw ? r.stdout : r.stdout.trim()) : null;
}

export async function inspectCheckout(root: string): Promise<CheckoutState> {
  const [commit, branch, status] = await Promise.all([
    gitRead(root, ['rev-parse', '--verify', '--quiet', 'HEAD']),
    gitRead(root, ['symbolic-ref', '--quiet', '--short', 'HEAD']),
    // Untracked files are no change to the checkout (data folders, dist/): a fast-forward that would overwrite one
    // stops by itself, and says so.
    // Raw: each line starts with two status columns, the first of which may be a space.
    // --no-optional-locks: a status that refreshed the index would take index.lock, and a merge starting then would fail.
    gitRead(root, ['--no-optional-locks', 'status', '--porcelain=v1', '--untracked-files=no'], { raw: true }),
  ]);
  let upstream: string | null = null;
  let remote: string | null = null;
  if (branch) {
    [upstream, remote] = await Promise.all([
      gitRead(root, ['rev-parse', '--abbrev-ref', '--symbolic-full-name', `${branch}@{upstream}`]),
      gitRead(root, ['config', '--get', `branch.${branch}.remote`]),
    ]);
  }
  const changed = (status ?? '').split('\n').filter(Boolean).map((l) => l.slice(3));
  return { commit, branch, upstream, remote, changed };
}

/**
 * Why Update now must not touch this checkout, in sentences that say what to do; null when it may. Each case is one
 * where a merge would lose work or could not know what to merge: uncommitted changes, a detached HEAD, no upstream.
 */
export function refusalOf(s: CheckoutState): string | null {
  const why: string[] = [];
  if (s.changed.length) {
    const shown = s.changed.slice(0, 5).join(', ') + (s.changed.length > 5 ? ` and ${s.changed.length - 5} more` : '');
    why.push(`The checkout has uncommitted changes (${shown}): commit or stash them first (git stash), so an update cannot mix with them.`);
  }
  if (!s.branch) why.push(`HEAD is detached${s.commit ? ` at ${s.commit.slice(0, 12)}` : ''}: check out the branch to update (git switch main), so the update has a branch to move.`);
  else if (!s.upstream || !s.remote) why.push(`The branch ${s.branch} has no upstream: set one (git branch --set-upstream-to=origin/${s.branch}), so the update knows where releases come from.`);
  return why.length ? why.join(' ') : null;
}
