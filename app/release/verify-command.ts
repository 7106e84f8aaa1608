/**
 * `vigil verify ARCHIVE [--sums FILE] [--sig FILE] [--key PUBLIC.pem]`: checks a release (docs/releases.md).
 * Exit codes: 0 verified, 1 not verified (each failed check is named), 2 usage.
 */
import { dirname, join, resolve } from 'node:path';
import { verifyRelease, type CommandArgs, type CommandDefinition, type CommandIo } from '@vigil/plugin-sdk';

const usage = 'vigil verify ARCHIVE [--sums FILE] [--sig FILE] [--key PUBLIC.pem] [--format text|json]';

async function run(args: CommandArgs, io: CommandIo): Promise<number> {
  const bad = (message: string): number => {
    io.err(`vigil verify: ${message}\n\nUsage: ${usage}\n`);
    return 2;
  };
  if (args.positionals.length !== 1) return bad(args.positionals.length ? `one archive at a time, got ${args.positionals.length}` : 'name the archive: vigil verify vigil-0.1.0.tgz --key PUBLIC.pem');
  const format = args.flags.format ?? 'text';
  if (format !== 'text' && format !== 'json') return bad(`--format takes text or json, got "${String(format)}"`);
  const str = (name: string): string | undefined => (typeof args.flags[name] === 'string' ? args.flags[name] as string : undefined);
  const keyFlag = str('key') ?? io.env.VIGIL_RELEASE_PUBLIC_KEY;
  if (!keyFlag) return bad('name the public key the release was signed for: --key PUBLIC.pem (or set VIGIL_RELEASE_PUBLIC_KEY)');
  const archive = resolve(io.cwd, args.positionals[0]);
  const sums = resolve(io.cwd, str('sums') ?? join(dirname(archive), 'SHA256SUMS'));
  const sig = resolve(io.cwd, str('sig') ?? `${sums}.sig`);
  const key = resolve(io.cwd, keyFlag);

  const report = await verifyRelease({ archive, sums, sig, key });
  if (format === 'json') io.out(`${JSON.stringify({ verified: report.ok, archive, sums, sig, key, checks: report.checks }, null, 2)}\n`);
  else {
    for (const c of report.checks) (c.ok ? io.out : io.err)(`${c.ok ? 'ok     ' : 'FAILED '} ${c.what}\n`);
    if (report.ok) io.out(`vigil verify: ${args.positionals[0]} verified\n`);
    else io.err(`vigil verify: ${args.positionals[0]} NOT verified: ${report.checks.filter((c) => !c.ok).length} check(s) failed\n`);
  }
  return report.ok ? 0 : 1;
}

export const verifyCommand: CommandDefinition = {
  name: 'verify',
  summary: 'Check a release archive: its SBOM and itself against SHA256SUMS, and SHA256SUMS\'s Ed25519 signature',
  usage,
  flags: {
    sums: { type: 'string', summary: 'The SHA256SUMS file (default: SHA256SUMS beside the archive)' },
    sig: { type: 'string', summary: 'The signature of SHA256SUMS (default: SHA256SUMS.sig beside it)' },
    key: { type: 'string', summary: 'The Ed25519 public key (PEM) the release is signed for (default: $VIGIL_RELEASE_PUBLIC_KEY)' },
    format: { type: 'string', summary: 'text (default) or json' },
  },
  run,
};
