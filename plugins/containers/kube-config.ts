import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';
import type { ApiEndpoint } from './socket-request.js';

interface Named<T> { name: string; [key: string]: unknown; cluster?: T; user?: T; context?: T }
interface KubeFile {
  'current-context'?: string;
  clusters?: Named<{ server?: string; 'certificate-authority'?: string; 'certificate-authority-data'?: string; 'insecure-skip-tls-verify'?: boolean }>[];
  users?: Named<{ token?: string; 'client-certificate'?: string; 'client-certificate-data'?: string; 'client-key'?: string; 'client-key-data'?: string; exec?: unknown; 'auth-provider'?: unknown }>[];
  contexts?: Named<{ cluster?: string; user?: string; namespace?: string }>[];
}

/** A kubeconfig that names what this reader does not do (an exec credential plugin) or lacks a part. */
export class KubeConfigError extends Error {}

export interface KubeTarget {
  api: ApiEndpoint;
  /** The context used, and its server: what the panel shows as the cluster's endpoint. */
  context: string;
  server: string;
}

/**
 * The cluster a kubeconfig's context points at, with its credentials: a bearer token or a client certificate, and the
 * cluster's CA (inline or a file relative to the kubeconfig). Exec and auth-provider credential plugins run programs
 * and are not supported: the context is reported with that reason.
 */
export async function readKubeConfig(file: string, contextName?: string): Promise<KubeTarget> {
  const doc = parse(await readFile(file, 'utf8'), { maxAliasCount: 100 }) as KubeFile | null;
  const name = contextName ?? doc?.['current-context'];
  if (!doc || !name) throw new KubeConfigError(`${file} names no current context`);
  const context = doc.contexts?.find((c) => c.name === name)?.context;
  if (!context) throw new KubeConfigError(`${file} has no context "${name}"`);
  const cluster = doc.clusters?.find((c) => c.name === context.cluster)?.cluster;
  if (!cluster?.server) throw new KubeConfigError(`context "${name}" names cluster "${context.cluster ?? ''}", which has no server`);
  const user = doc.users?.find((u) => u.name === context.user)?.user ?? {};
  if (user.exec || user['auth-provider']) throw new KubeConfigError(`user "${context.user ?? ''}" gets credentials from a plugin program, which the panel does not run`);
  const near = (p: string) => readFile(isAbsolute(p) ? p : resolve(dirname(file), p));
  const inline = (b64: string | undefined) => (b64 ? Buffer.from(b64, 'base64') : undefined);
  const tls = {
    ca: inline(cluster['certificate-authority-data']) ?? (cluster['certificate-authority'] ? await near(cluster['certificate-authority']) : undefined),
    cert: inline(user['client-certificate-data']) ?? (user['client-certificate'] ? await near(user['client-certificate']) : undefined),
    key: inline(user['client-key-data']) ?? (user['client-key'] ? await near(user['client-key']) : undefined),
    insecure: cluster['insecure-skip-tls-verify'] === true,
  };
  return {
    api: { baseUrl: cluster.server, tls, headers: user.token ? { authorization: `Bearer ${user.token}` } : undefined },
    context: name, server: cluster.server,
  };
}
