import { request } from 'undici';
import { waitFor } from './net.js';

export type GatewayRecord = Record<string, any>;

/** Sends through the gateway with raw header pairs, so repeats and casing reach it exactly as written. */
export async function sendThrough(port: number, method: string, path: string, headers: string[], body?: string | Buffer): Promise<{ status: number; body: string }> {
  const res = await request(`http://127.0.0.1:${port}${path}`, { method: method as 'GET', headers, body });
  return { status: res.statusCode, body: await res.body.text() };
}

/** Waits until the control plane lists a stored record for `path` and returns it. */
export function waitForRecord(controlPlane: string, token: string, path: string, timeoutMs = 15_000): Promise<GatewayRecord> {
  return waitFor<GatewayRecord | undefined>(async () => {
    const res = await fetch(`${controlPlane}/api/gateway/records?limit=200`, { headers: { authorization: `Bearer ${token}` } });
    const { data } = (await res.json()) as { data: GatewayRecord[] };
    return data.find((r) => r.path === path);
  }, { what: `a record for ${path}`, timeoutMs }) as Promise<GatewayRecord>;
}
