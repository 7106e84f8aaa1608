import { closedObject, type JsonSchema } from '@vigil/plugin-sdk';
import { UPDATE_PAGE_LINES } from './update-job.js';

const nullableString: JsonSchema = { type: ['string', 'null'] };

export const releaseSchema = closedObject({
  version: { type: 'string' },
  tag: { type: 'string', description: 'The git tag of the release.' },
  notes: { type: 'string', description: 'The release notes (Markdown as the feed has them), at most 64 KiB.' },
  published_at: { ...nullableString, description: 'When the release was published, as the feed says.' },
  archive_url: { ...nullableString, description: 'The npm archive (npm installs update from it).' },
  sums_url: { ...nullableString, description: 'SHA256SUMS, signed.' },
  signature_url: { ...nullableString, description: 'SHA256SUMS.sig, the Ed25519 signature of SHA256SUMS.' },
}, { title: 'SelfUpdateRelease' });

const outcomeSchema = closedObject({
  result: { enum: ['updated', 'current'] },
  from: { type: 'string' },
  to: { type: 'string' },
  restart_needed: { type: 'boolean' },
  message: { type: 'string' },
}, { title: 'SelfUpdateOutcome' });

const updateJobSchema = closedObject({
  state: { enum: ['running', 'done', 'failed'] },
  stage: { type: 'string', description: 'The step running now, or how the update ended.' },
  version: { type: 'string', description: 'The release being applied (empty until the feed answered).' },
  actor: { type: 'string', description: 'Who pressed Update now.' },
  started_at: { type: 'string', format: 'date-time' },
  ended_at: { type: ['string', 'null'], format: 'date-time' },
  outcome: { oneOf: [{ type: 'null' }, outcomeSchema] },
  error: { oneOf: [{ type: 'null' }, closedObject({ code: { type: 'string' }, message: { type: 'string' } })] },
  first: { type: 'integer', minimum: 0, description: 'Index of the oldest output line still kept.' },
  next: { type: 'integer', minimum: 0, description: 'Pass as `since` for the lines after these.' },
  lines: { type: 'array', items: { type: 'string' }, maxItems: UPDATE_PAGE_LINES },
}, { title: 'SelfUpdateJob' });

export const selfUpdateStatusSchema = closedObject({
  install_method: { enum: ['git checkout', 'npm package', 'global npm package', 'npx', 'source tree'] },
  install_dir: { type: 'string' },
  running: closedObject({
    version: { type: 'string' },
    commit: { ...nullableString, description: 'The commit this process started from (git checkouts).' },
  }),
  installed_version: { ...nullableString, description: 'The version on disk now: differs from the running one after an update, until a restart.' },
  can_update: { type: 'boolean', description: 'Update now may run (a feed, a key, an install method it can update, nothing running); a checkout\'s own refusal is in `checkout.refusal`.' },
  blocked: { ...nullableString, description: 'Why Update now cannot run, when it cannot.' },
  source: closedObject({
    release_url: { ...nullableString, description: 'The feed, without query or credentials.' },
    public_key: nullableString,
  }),
  checkout: {
    oneOf: [{ type: 'null' }, closedObject({
      commit: nullableString,
      branch: { ...nullableString, description: 'Null on a detached HEAD.' },
      upstream: nullableString,
      remote: nullableString,
      changed: { type: 'array', items: { type: 'string' }, description: 'Tracked files with uncommitted changes.' },
      refusal: { ...nullableString, description: 'Why Update now would refuse this checkout, and what to do.' },
    }, { title: 'SelfUpdateCheckout' })],
  },
  latest: {
    oneOf: [{ type: 'null' }, closedObject({
      release: releaseSchema,
      checked_at: { type: 'string', format: 'date-time' },
      newer: { type: 'boolean', description: 'The release is newer than the installed version.' },
    }, { title: 'SelfUpdateCheck' })],
  },
  update: { oneOf: [{ type: 'null' }, updateJobSchema] },
  restart: closedObject({
    service_manager: { ...nullableString, description: 'The service manager that runs Vigil (systemd), which then starts it again; null: a detached relauncher does.' },
    restarting: { type: 'boolean' },
  }),
}, { title: 'SelfUpdateStatus' });

export const restartAnswerSchema = closedObject({
  restarting: { const: true },
  method: { enum: ['service manager', 'detached'] },
  pid: { type: 'integer', description: 'This process, which stops now.' },
}, { title: 'SelfUpdateRestart' });
