// Benchmark: the event loop held by masking the largest chat turn the assistant accepts (a 512 KB body of log lines,
// a secret on every line) before it leaves for the provider (`redactOutgoing` over every message and context item,
// as `POST /api/ai` runs it, on the event loop).
//
// Baseline, same run, rounds alternated: `JSON.parse` of the same body, work the request pipeline does for every
// such request anyway. Budget: ≤ 50 ms held (bench/README.md, "Budgets").
//
// Usage: node dist/bench/assistant-masking.js [rounds, default 30]
import { DEFAULT_REDACT } from '../plugins/assistant/config-schema.js';
import { redactOutgoing } from '../plugins/assistant/redact-outgoing.js';
import { median } from './support/median.js';

const ROUNDS = Number(process.argv[2] ?? 30);
const BODY_BYTES = 512 * 1024;
const kinds = new Set(DEFAULT_REDACT);
const line = 'Dec  4 22:00:01 host sshd[1234]: Accepted publickey for root from 10.0.0.1 port 5555 ssh2 key AKIAIOSFODNN7EXAMPLE\n';
const item = line.repeat(Math.floor(BODY_BYTES / 8 / line.length));
// Eight context items (the most a turn takes), together just under the body limit.
const body = JSON.stringify({ messages: [{ role: 'user', content: 'What happened here?' }], context: Array.from({ length: 8 }, (_, i) => ({ kind: 'logs', title: `part ${i}`, content: item })) });

const masking: number[] = [];
const parsing: number[] = [];
let masked = 0;
for (let round = 0; round < ROUNDS + 3; round++) {
  let t = performance.now();
  const parsed = JSON.parse(body) as { messages: { content: string }[]; context: { content: string }[] };
  const parseMs = performance.now() - t;
  t = performance.now();
  masked = 0;
  for (const text of [...parsed.messages.map((m) => m.content), ...parsed.context.map((c) => c.content)]) masked += redactOutgoing(text, kinds).masked;
  const maskMs = performance.now() - t;
  if (round >= 3) {
    masking.push(maskMs);
    parsing.push(parseMs);
  }
}
const m = median(masking);
const p = median(parsing);
console.log(`assistant masking of a ${Math.round(body.length / 1024)} KB turn (${masked} secrets): ${m.toFixed(2)} ms held (ratio ${(m / p).toFixed(2)} vs JSON.parse of the body, ${p.toFixed(2)} ms; worst ${Math.max(...masking).toFixed(2)} ms; budget 50 ms)`);
