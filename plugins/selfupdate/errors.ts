import { defineErrorCodes } from '@vigil/plugin-sdk';

/** Codes of self-update (plugin `selfupdate`). */
export const SelfUpdateErrors = defineErrorCodes('SELFUPDATE', {
  NOT_CONFIGURED: {
    status: 409,
    meaning: 'Self-update has no release feed (`selfupdate.release_url`) or, for Update now, no public key (`selfupdate.public_key`).',
    action: 'Set `selfupdate.release_url` to the release feed and `selfupdate.public_key` to the release signing key (docs/releases.md), then reload.',
  },
  FEED: {
    status: 502,
    meaning: 'The release feed or a release file could not be fetched or read: unreachable, an error status, over its size cap, past its time limit, or not the documented JSON shape.',
    action: 'The message names the URL and the cause; check `selfupdate.release_url` and the network, then press Check for updates again.',
  },
  REFUSED: {
    status: 409,
    meaning: 'Update now refused to touch the installation: a git checkout with uncommitted changes, a detached HEAD, a branch with no upstream, a release that is not a fast-forward, or an install method it cannot update. Nothing was merged or installed.',
    action: 'Do what the message says (commit or stash the changes, check out a branch, set its upstream with `git branch --set-upstream-to`), then press Update now again.',
  },
  NOT_VERIFIED: {
    status: 422,
    meaning: 'The release did not verify against its signed SHA256SUMS and the configured public key (the checks `vigil verify` makes). Nothing was applied.',
    action: 'Do not apply it. Check that `selfupdate.public_key` is the key the project publishes; a release that still fails was changed after signing.',
  },
  STEP_FAILED: {
    status: 500,
    meaning: 'A program of the update failed or passed its time limit (git fetch, git merge, npm ci, the build, npm install). What it changed before failing stays: a fast-forward that was made is kept.',
    action: 'Read the update\'s output on the About page (`GET /api/perchupdate`); fix the cause (network, disk, a build error) and press Update now again, or finish by hand in the installation folder.',
  },
  BUSY: {
    status: 409,
    meaning: 'An update is already running (one at a time), or a restart has begun.',
    action: 'Wait for it to end; its output is in `GET /api/perchupdate`.',
  },
});
