// What every kind of update shares: the log it streams to, the programs it runs, and the signature check made
// before anything is applied.
import { join } from 'node:path';
import { httpError, verifyRelease } from '@vigil/plugin-sdk';
import { SelfUpdateErrors } from './errors.js';
import { download, type Release } from './release-feed.js';
import { runStep } from './run-step.js';

export interface StepContext {
  /** Appends output to the update's log (and so to what `GET /api/perchupdate` streams). */
  log(text: string): void;
  /** Names the step now running ("Fetching origin"). */
  stage(name: string): void;
  /** A folder of this update's own, removed after it. */
  workDir: string;
  /** The Ed25519 public key (PEM file) releases are signed with. */
  keyFile: string;
  requestTimeoutMs: number;
  stepTimeoutMs: number;
}

export interface UpdateOutcome {
  /** `updated`: the new version is in place (a restart runs it); `current`: the installation already is the release. */
  result: 'updated' | 'current';
  from: string;
  to: string;
  /** Whether the running process must restart to run what was applied. */
  restart_needed: boolean;
  message: string;
}

/** Runs one program of the update, its output in the log; a non-zero exit fails the update with its end. */
export async function step(c: StepContext, cwd: string, program: string, args: string[], what: string): Promise<string> {
  c.log(`$ ${program} ${args.join(' ')}\n`);
  const r = await runStep(program, args, { cwd, timeoutMs: c.stepTimeoutMs, onOutput: (t) => c.log(t) });
  if (r.timedOut) throw new Error(`${what} did not finish within ${Math.round(c.stepTimeoutMs / 1000)} s (selfupdate.step_timeout); it was stopped`);
  if (r.code !== 0) throw new Error(`${what} failed (exit ${r.code}): ${(r.stderr.trim().split('\n').pop() ?? '').slice(0, 300)}`);
  return r.stdout.trim();
}

/**
 * Checks `file` against the release's signed SHA256SUMS with `vigil verify`'s own logic (the Ed25519 signature by the
 * configured key, then the file's sha256 as SHA256SUMS lists it under `name`). Throws NOT_VERIFIED naming each
 * failed check; returns only when the file is the one the release signed.
 */
export async function verifyAgainstRelease(c: StepContext, release: Release, file: string): Promise<void> {
  if (!release.sums_url || !release.signature_url) {
    throw httpError(SelfUpdateErrors.NOT_VERIFIED, `release ${release.version} names no SHA256SUMS or no SHA256SUMS.sig: an unsigned release is not applied`);
  }
  c.stage('Verifying the signature');
  const sums = join(c.workDir, 'SHA256SUMS');
  const sig = join(c.workDir, 'SHA256SUMS.sig');
  await download(release.sums_url, sums, c.requestTimeoutMs, 64 * 1024);
  await download(release.signature_url, sig, c.requestTimeoutMs, 1024);
  const report = await verifyRelease({ archive: file, sums, sig, key: c.keyFile, others: false });
  for (const check of report.checks) c.log(`${check.ok ? 'ok     ' : 'FAILED '} ${check.what}\n`);
  if (!report.ok) {
    throw httpError(SelfUpdateErrors.NOT_VERIFIED,
      `release ${release.version} did not verify, so nothing was applied: ${report.checks.filter((x) => !x.ok).map((x) => x.what).join('; ')}`);
  }
}
