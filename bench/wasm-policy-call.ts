// Benchmark: a WASM policy call on the telemetry lane, amortised per request over a batch. Budget (bench/README.md):
// ≤ 20 µs per request.
//
// The policy is examples/policies/card-numbers.ts, built here with `buildPolicy`. Each view is what the capture
// lane would build for a ~1 KB JSON order (6 request headers, ~30 body fields, one card number). Measured:
// `WasmPolicy.decide(views)`: JSON encoding of the batch, the trip to the sandbox worker, the guest, and decoding
// plus strict validation of the decisions.
// Baseline, same process, same views: the same JSON round trip and the same card check done in plain JS, with
// the same validation; the ratio is the price of the sandbox.
//
// Usage: node dist/bench/wasm-policy-call.js [batches per round, default 40]
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { buildPolicy } from '../sandbox/wasm/build-policy.js';
import { createWasmPolicy } from '../policies/wasm-policy.js';
import { buildPolicyView, type PolicyView } from '../policies/wasm-view.js';
import { wasmOutputProblem, type WasmDecision } from '../policies/wasm-decision.js';
import { median } from './support/median.js';

const BATCHES = Number(process.argv[2] ?? 40);
const ROUNDS = 5;
const root = join(fileURLToPath(new URL('.', import.meta.url)), '../..');

function order(i: number): unknown {
  return {
    order: {
      id: `ord_${10_000 + i}`, createdMs: 1_700_000_000_000 + i,
      items: Array.from({ length: 5 }, (_, k) => ({ sku: `SKU-${1000 + k}`, qty: k + 1, price: 9.99 + k, name: `Item ${k}` })),
    },
    card: { number: i % 2 ? '4111 1111 1111 1111' : '5555555555554444', cvc: '123', holder: 'Ada Lovelace', expiry: '12/29' },
    billing: { street: '1 Analytical Engine Way', city: 'London', zip: 'N1 9GU' },
    note: 'leave at the door',
  };
}

function view(i: number): PolicyView {
  return buildPolicyView({
    method: 'POST', path: '/api/orders/{id}', target: `/api/orders/ord_${i}?expand=items&page=2`,
    requestHeaders: [
      'Host', 'api.example.com', 'User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36',
      'Accept', 'application/json', 'Content-Type', 'application/json',
      'Authorization', 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZW5hbnQtNDIifQ.c2lnbmF0dXJl',
      'X-Request-Id', `0f8fad5b-d9cb-469f-a165-${String(i).padStart(12, '0')}`,
    ],
    status: 201, labels: { team: 'payments' }, matchedRules: ['everything', 'orders'],
    requestJson: order(i), responseJson: { id: `ord_${i}`, status: 'accepted' },
  });
}

// The same check as the example policy, in JS, for the baseline.
function looksLikeCard(value: string | number): boolean {
  const text = String(value);
  if (!/^\d(?:[ -]?\d){11,18}$/.test(text)) return false;
  const digits = text.replace(/[ -]/g, '');
  const p = (n: number) => Number(digits.slice(0, n));
  const len = digits.length;
  const issuer = p(1) === 4 ? [13, 16, 19].includes(len)
    : (p(2) >= 51 && p(2) <= 55) || (p(4) >= 2221 && p(4) <= 2720) ? len === 16
      : p(2) === 34 || p(2) === 37 ? len === 15
        : p(4) === 6011 || p(2) === 65 || (p(3) >= 644 && p(3) <= 649) || p(2) === 62 || (p(4) >= 3528 && p(4) <= 3589) ? len >= 16
          : false;
  if (!issuer) return false;
  let sum = 0;
  for (let k = 0; k < len; k++) {
    let d = digits.charCodeAt(len - 1 - k) - 48;
    if (k % 2) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
  }
  return sum % 10 === 0;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
function baseline(views: PolicyView[]): WasmDecision[] {
  const input = JSON.parse(decoder.decode(encoder.encode(JSON.stringify({ views })))) as { views: PolicyView[] };
  const decisions = input.views.map((v): WasmDecision => {
    const fields: string[] = [];
    for (const body of [v.body_fields?.request, v.body_fields?.response]) {
      for (const [path, value] of Object.entries(body ?? {})) if (looksLikeCard(value)) fields.push(path);
    }
    return fields.length ? { redact: { json_fields: fields } } : {};
  });
  const output = JSON.parse(decoder.decode(encoder.encode(JSON.stringify({ decisions }))));
  if (wasmOutputProblem(output, views.length)) throw new Error('baseline produced invalid output');
  return output.decisions;
}


const scratch = mkdtempSync(join(tmpdir(), 'vigil-bench-wasm-'));
try {
  const module = await buildPolicy(join(root, 'examples/policies/card-numbers.ts'), { outFile: join(scratch, 'card-numbers.wasm') });
  const policy = await createWasmPolicy({ module, maxBatch: 256, callTimeoutMs: 1000 });
  try {
    for (const batch of [64, 256, 512]) {
      const views = Array.from({ length: batch }, (_, i) => view(i));
      const first = await policy.decide(views);
      const expected = baseline(views);
      if (JSON.stringify(first) !== JSON.stringify(expected)) throw new Error('the WASM policy and the baseline disagree');
      for (let i = 0; i < 20; i++) { await policy.decide(views); baseline(views); }
      const wasmUs: number[] = [];
      const baseUs: number[] = [];
      const wasmCpu: number[] = [];
      const baseCpu: number[] = [];
      const cpuUs = (since: NodeJS.CpuUsage) => { const u = process.cpuUsage(since); return u.user + u.system; };
      for (let r = 0; r < ROUNDS; r++) {
        let t = performance.now();
        let c = process.cpuUsage();
        for (let b = 0; b < BATCHES; b++) await policy.decide(views);
        wasmUs.push(((performance.now() - t) * 1000) / (BATCHES * batch));
        wasmCpu.push(cpuUs(c) / (BATCHES * batch));
        t = performance.now();
        c = process.cpuUsage();
        for (let b = 0; b < BATCHES; b++) baseline(views);
        baseUs.push(((performance.now() - t) * 1000) / (BATCHES * batch));
        baseCpu.push(cpuUs(c) / (BATCHES * batch));
      }
      const w = median(wasmUs);
      const base = median(baseUs);
      const bytes = JSON.stringify({ views }).length / batch;
      console.log(`wasm policy call (batch ${batch}): ${w.toFixed(2)} µs/request (ratio ${(w / base).toFixed(2)} vs baseline)`);
      // CPU time of the whole process (host and sandbox threads): the cost, less sensitive to a busy machine.
      console.log(`  baseline ${base.toFixed(2)} µs/request; CPU ${median(wasmCpu).toFixed(2)} vs ${median(baseCpu).toFixed(2)} µs/request; ` +
        `${Math.round(bytes)} bytes of view JSON per request; budget 20 µs`);
    }
  } finally {
    await policy.close();
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
