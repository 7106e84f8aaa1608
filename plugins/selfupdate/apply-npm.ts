// Update now for an npm install: download the release's archive, verify it, and install it the way this copy was
// installed (globally, or as a project's dependency).
import { basename, dirname, join } from 'node:path';
import { httpError, type InstallMethod } from '@vigil/plugin-sdk';
import { SelfUpdateErrors } from './errors.js';
import { download, type Release } from './release-feed.js';
import { step, verifyAgainstRelease, type StepContext, type UpdateOutcome } from './update-steps.js';

/**
 * Installs the release's npm archive over the installation at `root`. The archive is verified before npm sees it;
 * npm then fetches the dependencies the SBOM lists, from the registry, as any install does.
 */
export async function updateNpmInstall(root: string, method: InstallMethod, running: string, release: Release, c: StepContext): Promise<UpdateOutcome> {
  if (!release.archive_url) throw httpError(SelfUpdateErrors.REFUSED, `release ${release.version} has no npm archive (archive_url) in the feed: nothing to install.`);
  c.stage(`Downloading ${basename(new URL(release.archive_url).pathname)}`);
  const archive = join(c.workDir, `vigil-${release.version}.tgz`);
  await download(release.archive_url, archive, c.requestTimeoutMs);
  await verifyAgainstRelease(c, release, archive);
  c.stage('Installing the package (npm install)');
  if (method === 'global npm package') {
    await step(c, c.workDir, 'npm', ['install', '--global', '--no-audit', '--no-fund', archive], 'npm install --global');
  } else {
    // `<project>/node_modules/vigil`: the project is two levels up.
    const project = dirname(dirname(root));
    await step(c, project, 'npm', ['install', '--no-audit', '--no-fund', archive], `npm install in ${project}`);
  }
  return {
    result: 'updated', from: running, to: release.version, restart_needed: true,
    message: `Installed vigil ${release.version} (verified) over ${running}. Restart to run it.`,
  };
}
