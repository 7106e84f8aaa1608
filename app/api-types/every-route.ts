/**
 * The OpenAPI document of a control plane with every built-in plugin on: what the dashboard's types are generated
 * from. It starts Vigil on loopback with a throwaway data directory, reads `/api` and stops.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Runtime } from '../index.js';
import type { OpenApiDocument } from './openapi-to-ts.js';

const config = (dataDir: string, token: string) => `
data_dir: ${JSON.stringify(dataDir)}
log: { level: error }
control_plane: { listen: 127.0.0.1:0, token: ${token} }
service: { upstream: http://127.0.0.1:9, listen: 127.0.0.1:0 }
rules:
  - name: all-traffic
    match: { path: /** }
ui: {}
capture: {}
llm: {}
evaluators: {}
alerts: {}
channels: {}
probes: {}
fleet: {}
terminal: {}
network: {}
files: {}
privilege: {}
systools: {}
packages: {}
dbbrowser: {}
selfupdate: {}
apiclient: {}
devtools: {}
assistant: {}
containers: {}
`;

export async function openApiOfEveryPlugin(): Promise<OpenApiDocument> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-api-types-'));
  const token = randomBytes(24).toString('base64url');
  const file = join(dir, 'vigil.yaml');
  writeFileSync(file, config(join(dir, 'data'), token));
  const runtime = await Runtime.start(file, { logWrite: () => {}, announce: () => {} });
  try {
    const res = await fetch(`${runtime.url}/api`, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`GET /api answered ${res.status}`);
    return await res.json() as OpenApiDocument;
  } finally {
    await runtime.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
