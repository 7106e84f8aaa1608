// The self-updater's state and its two actions: Check (the feed, on request) and Update now (a job). Nothing here
// runs on a timer or at start but reading the running commit from the local checkout.
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { httpError, HttpError, type InstallMethod } from '@vigil/plugin-sdk';
import { updateCheckout } from './apply-git.js';
import { updateNpmInstall } from './apply-npm.js';
import { SelfUpdateErrors } from './errors.js';
import { gitRead, inspectCheckout, refusalOf, type CheckoutState } from './git-checkout.js';
import { fetchRelease, type Release } from './release-feed.js';
import { compareVersions } from './semver-order.js';
import { UpdateJob } from './update-job.js';
import type { StepContext, UpdateOutcome } from './update-steps.js';

export interface UpdaterOptions {
  installDir: string;
  installMethod: InstallMethod;
  /** The version this process runs. */
  runningVersion: string;
  releaseUrl?: string;
  keyFile?: string;
  requestTimeoutMs: number;
  stepTimeoutMs: number;
  /** Where each update's own work folder is made (and removed after). */
  workRoot: string;
}

/** Install methods Update now can update, and why the others cannot. */
const CANNOT_UPDATE: Partial<Record<InstallMethod, string>> = {
  npx: 'Vigil runs from npx\'s cache: run `npx vigil@latest` to get the newest release; there is nothing here to update in place.',
  'source tree': 'This copy is neither a git checkout nor an npm install (unpacked sources), so it cannot update itself: install the new release as you installed this one.',
};

export class Updater {
  /** The commit this process started from (a git checkout); read once, since HEAD moves when an update applies. */
  runningCommit: string | null = null;
  latest: { release: Release; checked_at: string } | null = null;
  job: UpdateJob | null = null;
  restarting = false;
  /** Set from Update now's press until its job exists: two presses at once start one update. */
  private starting = false;
  /** The checkout as last read, answered while an update runs (git is left to the update then). */
  private lastCheckout: (CheckoutState & { refusal: string | null }) | null = null;

  constructor(readonly o: UpdaterOptions) {}

  async init(): Promise<void> {
    if (this.o.installMethod === 'git checkout') this.runningCommit = await gitRead(this.o.installDir, ['rev-parse', '--verify', '--quiet', 'HEAD']);
  }

  /** The version in the installation on disk now: after an update and before a restart it differs from the running one. */
  installedVersion(): string | null {
    try {
      const pkg = JSON.parse(readFileSync(join(this.o.installDir, 'package.json'), 'utf8')) as { version?: unknown };
      return typeof pkg.version === 'string' ? pkg.version : null;
    } catch { return null; }
  }

  /** The checkout's state and what Update now would refuse, read locally (git, no network). Null for other methods. */
  async checkout(): Promise<(CheckoutState & { refusal: string | null }) | null> {
    if (this.o.installMethod !== 'git checkout') return null;
    if (this.job?.state === 'running' && this.lastCheckout) return this.lastCheckout;
    try {
      const state = await inspectCheckout(this.o.installDir);
      this.lastCheckout = { ...state, refusal: refusalOf(state) };
    } catch (err) {
      // git itself is missing (or cannot start): said as the refusal, never a blank card or a 500.
      this.lastCheckout = { commit: null, branch: null, upstream: null, remote: null, changed: [], refusal: `${(err as Error).message}: a git checkout is updated with git; install it (apt-get install git).` };
    }
    return this.lastCheckout;
  }

  /** Why Update now cannot run at all here, before any state of the checkout is read; null when it may try. */
  blocker(): HttpError | null {
    if (this.job?.state === 'running' || this.starting || this.restarting) return httpError(SelfUpdateErrors.BUSY, this.restarting ? 'Vigil is restarting' : 'an update is running: wait for it to end');
    if (!this.o.releaseUrl) return httpError(SelfUpdateErrors.NOT_CONFIGURED, 'no release feed is configured: set selfupdate.release_url');
    if (!this.o.keyFile) return httpError(SelfUpdateErrors.NOT_CONFIGURED, 'no release signing key is configured: set selfupdate.public_key, so a release can be verified before it is applied');
    if (!existsSync(this.o.keyFile)) return httpError(SelfUpdateErrors.NOT_CONFIGURED, `the release signing key ${this.o.keyFile} (selfupdate.public_key) does not exist`);
    const cannot = CANNOT_UPDATE[this.o.installMethod];
    return cannot ? httpError(SelfUpdateErrors.REFUSED, cannot) : null;
  }

  /** Check for updates: the one request to the release feed. */
  async check(): Promise<{ release: Release; checked_at: string }> {
    if (!this.o.releaseUrl) throw httpError(SelfUpdateErrors.NOT_CONFIGURED, 'no release feed is configured: set selfupdate.release_url');
    const release = await fetchRelease(this.o.releaseUrl, this.o.requestTimeoutMs);
    this.latest = { release, checked_at: new Date().toISOString() };
    return this.latest;
  }

  /** Whether the newest release checked is newer than what is installed. */
  newer(release: Release): boolean {
    return compareVersions(release.version, this.installedVersion() ?? this.o.runningVersion) > 0;
  }

  /**
   * Update now. The refusals that need no network (busy, not configured, an install method that cannot update, and a
   * checkout's uncommitted changes, detached HEAD or missing upstream) throw here, before anything starts; the rest
   * runs as the job, whose end `onEnd` hears.
   */
  async start(actor: string, onEnd: (job: UpdateJob) => void): Promise<UpdateJob> {
    const blocked = this.blocker();
    if (blocked) throw blocked;
    // Reserved before the first await, so a second press finds it taken.
    this.starting = true;
    try {
      const checkout = await this.checkout();
      if (checkout?.refusal) throw httpError(SelfUpdateErrors.REFUSED, checkout.refusal);
      const job = new UpdateJob(this.latest?.release.version ?? '', actor);
      this.job = job;
      void this.run(job).then(() => onEnd(job));
      return job;
    } finally {
      this.starting = false;
    }
  }

  private async run(job: UpdateJob): Promise<void> {
    const workDir = await mkdtemp(join(this.o.workRoot, 'update-'));
    const c: StepContext = {
      log: (t) => job.append(t), stage: (s) => { job.stage = s; job.append(`== ${s}\n`); },
      workDir, keyFile: this.o.keyFile!, requestTimeoutMs: this.o.requestTimeoutMs, stepTimeoutMs: this.o.stepTimeoutMs,
    };
    try {
      c.stage('Asking the release feed');
      const { release } = await this.check();
      (job as { version: string }).version = release.version;
      c.log(`newest release: ${release.version} (${release.tag})\n`);
      let outcome: UpdateOutcome;
      if (this.o.installMethod === 'git checkout') outcome = await updateCheckout(this.o.installDir, release, c);
      else outcome = await updateNpmInstall(this.o.installDir, this.o.installMethod, this.installedVersion() ?? this.o.runningVersion, release, c);
      c.log(`${outcome.message}\n`);
      job.finish(outcome, null);
    } catch (err) {
      const code = err instanceof HttpError ? err.code : SelfUpdateErrors.STEP_FAILED;
      job.append(`${(err as Error).message}\n`);
      job.finish(null, { code, message: (err as Error).message });
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }
}
