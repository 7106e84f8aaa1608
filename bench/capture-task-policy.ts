// Benchmark: what the policy costs each capture batch on its way to a worker, for a policy of 100 rules. A task
// carries the policy as JSON made once per policy; the worker compares it with the last one it parsed and reuses that
// object (gateway/records/store-rows-worker.ts), so governance finds its compiled rules by identity.
//
// Baseline, in the same run: the policy as an object, structured-cloned with every batch (what postMessage does on
// both threads) and keyed by its rules' JSON in the worker to find the compiled rules again.
// v8.serialize / deserialize stand in for postMessage: they are the same serializer, without a thread between.
//
// Usage: node dist/bench/capture-task-policy.js [batches per round, default 2000]
import { deserialize, serialize } from 'node:v8';
import { median } from './support/median.js';

const BATCHES = Number(process.argv[2] ?? 2000);
const ROUNDS = 5;

const rules = Array.from({ length: 100 }, (_, i) => ({
  name: `rule-${i}`,
  match: { path: `/api/v${i % 3}/service-${i}/**`, methods: ['GET', 'POST'] },
  redact: { headers: ['Authorization', 'X-Api-Key'], query_params: ['token'], json_fields: ['$.card.number', `$.**.secret_${i}`, '$.*.cvc'] },
  labels: { tenant: 'header:X-Tenant-Id' },
  sample: 0.5,
  keep_errors: true,
}));
const policy = { rules };
const policyJson = JSON.stringify(policy);

function perBatch(send: () => unknown): number {
  const t0 = performance.now();
  for (let i = 0; i < BATCHES; i++) send();
  return ((performance.now() - t0) * 1000) / BATCHES;
}

let lastJson = '';
const asJson = () => {
  const json = deserialize(serialize(policyJson)) as string;
  if (json !== lastJson) lastJson = json; // a new policy would be parsed here, once
  return json;
};
const asObject = () => JSON.stringify((deserialize(serialize(policy)) as typeof policy).rules);

const json: number[] = [];
const object: number[] = [];
for (let round = 0; round <= ROUNDS; round++) {
  const j = perBatch(asJson);
  const o = perBatch(asObject);
  if (round > 0) { json.push(j); object.push(o); } // round 0 warms the JIT up
}
const j = median(json);
const o = median(object);
console.log(`capture task policy (100 rules, ${policyJson.length} bytes of JSON): ${j.toFixed(1)} µs per batch ` +
  `(ratio ${(j / o).toFixed(3)} vs the policy object cloned and keyed by its JSON at ${o.toFixed(1)} µs; median of ${ROUNDS} rounds)`);
