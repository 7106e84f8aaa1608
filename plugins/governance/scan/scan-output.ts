// `vigil scan`'s three outputs: a table for people, JSON for CI jobs, SARIF 2.1.0 for code-scanning tools.
import type { Finding } from './scan-core.js';

export interface ScanReport {
  source: string;
  records: number;
  findings: Finding[];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function textReport(r: ScanReport): string {
  if (r.findings.length === 0) return `Scanned ${plural(r.records, 'record')} from ${r.source}: nothing sensitive-looking is left unmasked.\n`;
  const rows = r.findings.map((f) => [f.route, f.part, f.field, f.kind, String(f.records), f.sample, f.why]);
  const head = ['ROUTE', 'PART', 'FIELD', 'DETECTION', 'RECORDS', 'SAMPLE', 'WHY'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => `${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ')}\n`;
  let out = `Scanned ${plural(r.records, 'record')} from ${r.source}: ${plural(r.findings.length, 'unmasked finding')}.\n\n`;
  out += line(head) + rows.map(line).join('');
  out += '\nRules to add (under rules:):\n\n';
  const seen = new Set<string>();
  for (const f of r.findings) if (!seen.has(f.rule)) { seen.add(f.rule); out += `${f.rule}\n`; }
  return out;
}

export function jsonReport(r: ScanReport): string {
  return `${JSON.stringify(r, null, 2)}\n`;
}

/** SARIF 2.1.0: one reporting rule per detection kind, one result per finding, located logically and at the config file. */
export function sarifReport(r: ScanReport, version: string, artifact: string | undefined): string {
  const kinds = [...new Set(r.findings.map((f) => f.kind))].sort();
  const run = {
    tool: {
      driver: {
        name: 'vigil scan', version,
        rules: kinds.map((k) => ({
          id: `vigil-scan/${k}`, name: k,
          shortDescription: { text: `Unmasked ${k.replace(/_/g, ' ')} in captured traffic` },
          defaultConfiguration: { level: 'error' },
        })),
      },
    },
    results: r.findings.map((f) => ({
      ruleId: `vigil-scan/${f.kind}`, ruleIndex: kinds.indexOf(f.kind), level: 'error',
      message: { text: `${f.why} at ${f.part} ${f.field} of ${f.route}, in ${f.records} record${f.records === 1 ? '' : 's'} (sample ${f.sample}). Add this rule:\n${f.rule}` },
      locations: [{
        ...(artifact ? { physicalLocation: { artifactLocation: { uri: artifact } } } : {}),
        logicalLocations: [{ name: f.field, fullyQualifiedName: `${f.route} ${f.part} ${f.field}`, kind: 'member' }],
      }],
      properties: { route: f.route, part: f.part, field: f.field, records: f.records, sample: f.sample, rule: f.rule },
    })),
  };
  return `${JSON.stringify({ $schema: 'https://json.schemastore.org/sarif-2.1.0.json', version: '2.1.0', runs: [run] }, null, 2)}\n`;
}
