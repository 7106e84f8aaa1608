import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import type { PluginDefinition } from './plugin.js';
import type { Topics } from './registry.js';

/**
 * A real Vigil runtime for a plugin author's tests: the same core, control plane, bus and store that `vigil run`
 * uses, on a free port, with a throwaway data directory.
 */
export interface TestRuntime {
  /** Control plane base URL, e.g. http://127.0.0.1:41234. */
  readonly url: string;
  /** The dashboard token (send as `Authorization: Bearer <token>`). */
  readonly token: string;
  readonly dataDir: string;
  /** `fetch` against the control plane, authenticated unless `auth: false`. */
  fetch(path: string, init?: RequestInit & { auth?: boolean }): Promise<Response>;
  /** Publishes on the runtime's bus, as a producer plugin would. */
  publish<K extends keyof Topics & string>(topic: K, message: Topics[K]): number;
  /** Prometheus text from /metrics. */
  metrics(): Promise<string>;
  /** Stops the runtime and removes the data directory. Idempotent. */
  stop(): Promise<void>;
}

export interface TestRuntimeOptions {
  /** The plugins under test, each with its config (validated against its schema like a config file's `with`). */
  // Each plugin's own config type; the harness validates the config against the plugin's schema, not its type.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  plugins: (PluginDefinition<any> | { plugin: PluginDefinition<any>; config?: unknown })[];
  /** Extra config: core keys and built-in plugin sections, as they would appear in the YAML file. */
  config?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  /** Receives log lines; default: dropped unless VIGIL_TEST_LOG=1. */
  log?: (line: string) => void;
}

interface RuntimeModule {
  Runtime: {
    start(file: string, options: Record<string, unknown>): Promise<{
      url: string; stop(): Promise<void>; bus: { publish(topic: string, message: unknown): number };
    }>;
  };
}

/** Finds the vigil runtime: the `vigil` package if installed, else the nearest ancestor package named vigil. */
async function loadRuntime(): Promise<RuntimeModule> {
  try {
    return (await import('vigil' as string)) as RuntimeModule;
  } catch { /* not installed as a package: look for the source tree */ }
  for (const start of [dirname(fileURLToPath(import.meta.url)), process.cwd()]) {
    let dir = start;
    for (;;) {
      const pkg = join(dir, 'package.json');
      if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === 'vigil') {
        return (await import(pathToFileURL(join(dir, 'dist/app/index.js')).href)) as RuntimeModule;
      }
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  throw new Error('startTestRuntime: cannot find the vigil runtime; add "vigil" to your devDependencies');
}

/** Starts a real runtime with the given plugins. Always `await rt.stop()` when done. */
export async function startTestRuntime(options: TestRuntimeOptions): Promise<TestRuntime> {
  const { Runtime } = await loadRuntime();
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-plugin-test-'));
  const token = randomBytes(24).toString('base64url');
  const config = {
    data_dir: dataDir,
    log: { level: 'debug', format: 'json' },
    ...options.config,
    control_plane: { listen: '127.0.0.1:0', token, ...(options.config?.control_plane as object | undefined) },
  };
  const file = join(dataDir, 'vigil.yaml');
  writeFileSync(file, JSON.stringify(config, null, 2));
  const extraPlugins = options.plugins.map((p) => ('plugin' in p ? { def: p.plugin, config: p.config } : { def: p }));
  const write = options.log ?? (process.env.VIGIL_TEST_LOG === '1' ? (l: string) => process.stderr.write(l) : () => {});
  let runtime;
  try {
    runtime = await Runtime.start(file, { env: options.env ?? process.env, extraPlugins, logWrite: write, announce: () => {} });
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  let stopped: Promise<void> | undefined;
  const rt = runtime;
  return {
    url: rt.url,
    token,
    dataDir,
    fetch(path, init = {}) {
      const { auth = true, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (auth && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
      return fetch(new URL(path, rt.url), { ...rest, headers });
    },
    publish: (topic, message) => rt.bus.publish(topic, message),
    async metrics() {
      const res = await fetch(new URL('/metrics', rt.url), { headers: { authorization: `Bearer ${token}` } });
      return res.text();
    },
    stop() {
      stopped ??= rt.stop().finally(() => rmSync(dataDir, { recursive: true, force: true }));
      return stopped;
    },
  };
}
