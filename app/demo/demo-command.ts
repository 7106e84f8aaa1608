/**
 * `vigil demo`: the product with data in it, in one process. A small shop API on a loopback port, the gateway in
 * front of it with the demo policy (examples/demo/vigil.yaml), and a load of traffic from five tenants.
 *
 * It lives in app/, the composition root, because it starts the runtime itself (as `vigil run` does) and composes
 * it with an upstream and a client: a plugin reaches the core only through the plugin-sdk context and could start
 * neither. This module stays small; the demo loads when the command runs (`vigil help` lists it without loading it).
 */
import type { CommandArgs, CommandDefinition, CommandIo } from '@vigil/plugin-sdk';
import type { Composition } from '../../runtime/composition.js';

const USAGE = 'vigil demo [--port 9095] [--proxy-port 8080] [--rate 1] [--no-traffic] [--data-dir DIR] [-config FILE]';

export interface DemoSettings {
  /** Control-plane port; undefined: 9095 when free, else any free port. */
  port?: number;
  /** The gateway's port; undefined: 8080 when free, else any free port. */
  proxyPort?: number;
  /** Requests per second at the busiest hour of the day, after the first burst (the hour of the day scales it). */
  rate: number;
  traffic: boolean;
  /** Kept after the demo; undefined: a fresh temporary directory, removed when the demo stops. */
  dataDir?: string;
  /** The config file to run; undefined: examples/demo/vigil.yaml. */
  config?: string;
}

class DemoUsageError extends Error {}

function port(name: string, value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(n >= 1 && n <= 65_535)) throw new DemoUsageError(`--${name} takes a port from 1 to 65535, got "${String(value)}"`);
  return n;
}

/** The command line's settings; throws DemoUsageError for a bad value. */
export function demoSettings(args: CommandArgs): DemoSettings {
  const f = args.flags;
  if (args.positionals.length > 0) throw new DemoUsageError(`unexpected argument "${args.positionals[0]}"`);
  let rate = 1;
  if (f.rate !== undefined) {
    rate = typeof f.rate === 'string' && /^\d+(\.\d+)?$/.test(f.rate) ? Number(f.rate) : NaN;
    if (!(rate >= 0 && rate <= 200)) throw new DemoUsageError(`--rate takes requests per second from 0 to 200, got "${String(f.rate)}"`);
  }
  const text = (name: string): string | undefined => {
    const v = f[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v === '') throw new DemoUsageError(`--${name} needs a value`);
    return v;
  };
  return {
    port: port('port', f.port),
    proxyPort: port('proxy-port', f['proxy-port']),
    rate,
    traffic: f['no-traffic'] !== true,
    dataDir: text('data-dir'),
    config: text('config'),
  };
}

/** The `demo` command, for the composition given (the one `vigil` ships). */
export function demoCommand(composition: () => Composition): CommandDefinition {
  return {
    name: 'demo',
    summary: 'Run a demo: a small shop API, the gateway in front of it, and traffic from five tenants',
    usage: USAGE,
    flags: {
      port: { type: 'string', summary: 'Port of the dashboard and control plane (default 9095, or a free one when taken)' },
      'proxy-port': { type: 'string', summary: 'Port of the gateway (default 8080, or a free one when taken)' },
      rate: { type: 'string', summary: 'Requests per second at the busiest hour of the day, after a first burst of 60 (default 1; 0: the burst only)' },
      'no-traffic': { type: 'boolean', summary: 'Send no traffic: the API and the gateway wait for your requests' },
      'data-dir': { type: 'string', summary: 'Keep the data in DIR (default: a temporary directory, removed on exit)' },
      config: { type: 'string', summary: 'Run this config instead of examples/demo/vigil.yaml (its VIGIL_DEMO_* variables are set)' },
    },
    async run(args: CommandArgs, io: CommandIo): Promise<number> {
      let settings: DemoSettings;
      try {
        settings = demoSettings(args);
      } catch (err) {
        if (!(err instanceof DemoUsageError)) throw err;
        io.err(`vigil demo: ${err.message}\n\nUsage: ${USAGE}\n`);
        return 2;
      }
      const { runDemo } = await import('./run-demo.js');
      return runDemo(settings, composition(), io);
    },
  };
}
