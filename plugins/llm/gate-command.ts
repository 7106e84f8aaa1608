import type { CommandArgs, CommandIo } from '@vigil/plugin-sdk';
import type { GateCheck, GateVerdict } from './api/gate.js';
import { THRESHOLDS } from './api/gate.js';
import { CHECK_NAMES, formatLimit, formatMeasured, formatSideValue } from './api/gate-wording.js';
import { table } from './text-table.js';

/** Exit codes: the gate's verdict, and 2 when there is none (bad flags, unreachable server, an error answer). */
export const GATE_EXIT = { pass: 0, fail: 1, usage: 2, insufficient: 3 } as const;

/** A check's cells, each figure with its unit: name, baseline, candidate, measured, limit, result. */
const cells = (c: GateCheck): string[] => [
  CHECK_NAMES[c.metric], formatSideValue(c.metric, c.baseline), formatSideValue(c.metric, c.candidate), formatMeasured(c),
  formatLimit(c.metric, c.threshold), result(c),
];
const result = (c: GateCheck): string => (c.pass === null ? 'n/a' : c.pass ? 'pass' : 'FAIL');
const verdictWord = (v: GateVerdict): string => (v.pass === null ? 'INSUFFICIENT' : v.pass ? 'PASS' : 'FAIL');

function plain(v: GateVerdict): string {
  const head = `Gate "${v.template}": v${v.candidate.version} (candidate, ${v.candidate.samples} calls)` +
    (v.baseline ? ` vs v${v.baseline.version} (baseline, ${v.baseline.samples} calls)` : '') + `: ${verdictWord(v)}\n${v.reason}\n`;
  if (!v.checks.length) return head;
  return `${head}\n${table(['CHECK', 'BASELINE', 'CANDIDATE', 'MEASURED', 'LIMIT', 'RESULT'], v.checks.map(cells))}`;
}

function markdown(v: GateVerdict): string {
  const icon = v.pass === null ? '⚠️' : v.pass ? '✅' : '❌';
  const lines = [
    `### ${icon} Vigil gate: ${verdictWord(v).toLowerCase()} — \`${v.template}\` v${v.candidate.version}` + (v.baseline ? ` vs v${v.baseline.version}` : ''),
    '',
    `${v.reason} (samples: candidate ${v.candidate.samples}${v.baseline ? `, baseline ${v.baseline.samples}` : ''}; min ${v.min_samples})`,
  ];
  if (v.checks.length) {
    lines.push('', '| Check | Baseline | Candidate | Measured | Limit | Result |', '|---|---:|---:|---:|---:|---|');
    for (const c of v.checks) lines.push(`| ${cells(c).join(' | ')} |`);
  }
  return lines.join('\n') + '\n';
}

/** `vigil gate`: asks a running Vigil's `GET /api/v1/gate` and turns the verdict into an exit code for CI. */
export async function runGateCommand(args: CommandArgs, io: CommandIo): Promise<number> {
  const f = args.flags;
  const url = String(f.url ?? io.env.VIGIL_URL ?? 'http://127.0.0.1:9095').replace(/\/+$/, '');
  const key = f.key ?? io.env.VIGIL_PROJECT_KEY;
  if (typeof f.template !== 'string' || typeof key !== 'string' || key === '' || args.positionals.length) {
    io.err('vigil gate: --template NAME and a project key (--key, or VIGIL_PROJECT_KEY) are required\n');
    return GATE_EXIT.usage;
  }
  const query = new URLSearchParams({ template: f.template });
  for (const name of ['baseline', 'candidate', 'baseline-label', 'candidate-label', 'min-samples', ...THRESHOLDS.map((t) => t.replace(/_/g, '-'))]) {
    const value = f[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value === '') { io.err(`vigil gate: --${name} needs a value\n`); return GATE_EXIT.usage; }
    query.set(name.replace(/-/g, '_'), value);
  }
  let res: Response;
  try {
    res = await fetch(`${url}/api/v1/gate?${query}`, { headers: { 'X-Service-Project-Key': key }, signal: AbortSignal.timeout(30_000) });
  } catch (err) {
    io.err(`vigil gate: cannot reach ${url}: ${(err as Error).message}\n`);
    return GATE_EXIT.usage;
  }
  const body = await res.json().catch(() => null) as (GateVerdict & { error?: { code: string; message: string } }) | null;
  if (!res.ok || !body || body.error) {
    io.err(`vigil gate: ${url} answered ${res.status}${body?.error ? ` ${body.error.code}: ${body.error.message}` : ''}\n`);
    return GATE_EXIT.usage;
  }
  io.out(f.markdown ? markdown(body) : plain(body));
  if (body.pass === true) return GATE_EXIT.pass;
  if (body.pass === false) return GATE_EXIT.fail;
  return f['allow-insufficient'] ? GATE_EXIT.pass : GATE_EXIT.insufficient;
}
