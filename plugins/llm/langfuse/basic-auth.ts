/**
 * Langfuse SDKs authenticate with HTTP Basic `publicKey:secretKey`. Vigil's mapping: the **secret key is the Vigil
 * project key** (what `vigil project create` printed); the public key is free text that Vigil records but does not
 * check (teams keep their `pk-lf-…` value, or put the project name there). So switching an app to Vigil is: set
 * the base URL to Vigil, and LANGFUSE_SECRET_KEY to the project key. A Bearer token or a Basic header without a
 * secret is refused (401): a public key alone proves nothing.
 */
import { Buffer } from 'node:buffer';

export interface LangfuseCredentials {
  publicKey: string;
  /** The Vigil project key, to look up as the spine looks up `X-Service-Project-Key`. */
  projectKey: string;
}

/** Credentials from an Authorization header, or undefined when it holds none usable. */
export function langfuseCredentials(authorization: string | undefined): LangfuseCredentials | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(authorization ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const projectKey = decoded.slice(colon + 1);
  if (projectKey === '') return undefined;
  return { publicKey: decoded.slice(0, colon), projectKey };
}

/** `GET /api/public/health`: the body Langfuse's SDKs and uptime checks expect. */
export const langfuseHealthBody = (version: string): { status: 'OK'; version: string } => ({ status: 'OK', version });
