// Update now for a git checkout: fetch the upstream, verify the release's tag, fast-forward to it, then install
// dependencies and build as the change needs.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { httpError } from '@vigil/plugin-sdk';
import { SelfUpdateErrors } from './errors.js';
import { gitRead, inspectCheckout, refusalOf } from './git-checkout.js';
import type { Release } from './release-feed.js';
import { step, verifyAgainstRelease, type StepContext, type UpdateOutcome } from './update-steps.js';

const refused = (message: string) => httpError(SelfUpdateErrors.REFUSED, message);

/** The release's source archive, as `npm run release` names it in SHA256SUMS (docs/releases.md). */
export const sourceArchiveName = (version: string): string => `vigil-${version}.src.tar`;

/** Files whose change needs no build (documentation); any other change rebuilds dist/. */
const NO_BUILD = /(^docs\/|\.md$)/;

/**
 * Fast-forwards the checkout at `root` to the release's tag. The target is the tag's commit, not the upstream's head:
 * the tag is what was signed, and commits after it are not released yet. Its signature is checked on the source
 * archive `git archive` makes of the tag, which `npm run release` lists in the signed SHA256SUMS: the same key and
 * the same check as the npm archive, and no second trust store (GPG or SSH allowed signers) to keep.
 */
export async function updateCheckout(root: string, release: Release, c: StepContext): Promise<UpdateOutcome> {
  const before = await inspectCheckout(root);
  const refusal = refusalOf(before);
  if (refusal) throw refused(refusal);
  const { remote, upstream } = before as { remote: string; upstream: string };

  c.stage(`Fetching ${remote}`);
  await step(c, root, 'git', ['fetch', '--tags', '--no-recurse-submodules', remote], `git fetch ${remote}`);
  const tagCommit = await gitRead(root, ['rev-parse', '--verify', '--quiet', `refs/tags/${release.tag}^{commit}`]);
  if (!tagCommit) throw refused(`${remote} has no tag ${release.tag} for release ${release.version}: nothing was merged.`);
  const from = before.commit ?? '';
  if (tagCommit === from) {
    return { result: 'current', from, to: tagCommit, restart_needed: false, message: `This checkout is already at ${release.tag} (${tagCommit.slice(0, 12)}).` };
  }
  if ((await gitRead(root, ['merge-base', '--is-ancestor', 'HEAD', tagCommit])) === null) {
    throw refused(`${release.tag} is not a fast-forward of ${before.branch}: the branch has commits the release lacks (or the release is older). Nothing was merged; merge or rebase by hand.`);
  }
  if ((await gitRead(root, ['merge-base', '--is-ancestor', tagCommit, upstream])) === null) {
    throw refused(`${release.tag} is not on ${upstream}: only a release on the branch's upstream is applied. Nothing was merged.`);
  }

  c.stage(`Archiving ${release.tag}`);
  const archive = join(c.workDir, sourceArchiveName(release.version));
  await step(c, root, 'git', ['archive', '--format=tar', `--prefix=vigil-${release.version}/`, '-o', archive, tagCommit], `git archive ${release.tag}`);
  await verifyAgainstRelease(c, release, archive);

  c.stage(`Fast-forwarding ${before.branch} to ${release.tag}`);
  // The checkout may have changed while the archive was verified: merge refuses by itself if it is no longer clean.
  const again = refusalOf(await inspectCheckout(root));
  if (again) throw refused(again);
  await step(c, root, 'git', ['merge', '--ff-only', tagCommit], `git merge --ff-only ${release.tag}`);

  const changed = (await gitRead(root, ['diff', '--name-only', from, tagCommit]) ?? '').split('\n').filter(Boolean);
  if (changed.includes('package-lock.json') && existsSync(join(root, 'package-lock.json'))) {
    c.stage('Installing dependencies (npm ci)');
    await step(c, root, 'npm', ['ci', '--no-audit', '--no-fund'], 'npm ci');
  }
  if (existsSync(join(root, 'scripts', 'build.mjs')) && changed.some((f) => !NO_BUILD.test(f))) {
    c.stage('Building (node scripts/build.mjs)');
    await step(c, root, process.execPath, [join(root, 'scripts', 'build.mjs')], 'the build');
  }
  return {
    result: 'updated', from, to: tagCommit, restart_needed: true,
    message: `Fast-forwarded ${before.branch} from ${from.slice(0, 12)} to ${release.tag} (${tagCommit.slice(0, 12)}), ${changed.length} file(s) changed. Restart to run it.`,
  };
}
