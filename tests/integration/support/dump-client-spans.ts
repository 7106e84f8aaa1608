// Developer aid (not a test): runs one client child and prints the decoded spans it exported.
// Usage: node dist/tests/integration/support/dump-client-spans.js CLIENT EXPORTER
import { fileURLToPath } from 'node:url';
import { startFakeOpenAI } from './fake-openai.js';
import { startOtlpReceiver } from './otlp-receiver.js';
import { decodeOtlpProtobuf } from '../../../plugins/llm/otlp/decode-protobuf.js';
import { decodeOtlpJson } from '../../../plugins/llm/otlp/decode-json.js';
import { mapOtlpRequest } from '../../../plugins/llm/otlp/map-request.js';

const [client = 'traceloop', exporter = 'proto'] = process.argv.slice(2);
const fake = await startFakeOpenAI();
const receiver = await startOtlpReceiver();
const child = fileURLToPath(new URL('./otel-openai-client.js', import.meta.url));
const { spawn } = await import('node:child_process');
await new Promise<void>((resolve) => {
  const p = spawn(process.execPath, [child], { env: { ...process.env, CLIENT: client, EXPORTER: exporter, OPENAI_BASE_URL: fake.url, OTLP_URL: `${receiver.url}/v1/otlp/traces` }, stdio: 'inherit' });
  p.on('close', () => resolve());
});
for (const r of receiver.received) {
  const req = r.contentType.includes('json') ? decodeOtlpJson(JSON.parse(r.body.toString('utf8'))) : decodeOtlpProtobuf(r.body);
  if (process.env.SPANS) console.log(r.contentType, JSON.stringify(req, (_k, v) => (v instanceof Uint8Array ? `<${v.length} bytes>` : v), 1));
  const mapped = mapOtlpRequest(req);
  console.log(JSON.stringify({ ...mapped, traces: Object.fromEntries(mapped.traces) }, null, 1));
}
await fake.close();
await receiver.close();
