import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { definePlugin, type PluginDefinition, type Logger } from '@vigil/plugin-sdk';
import { PluginHost } from '../../../../runtime/plugins/host.js';
import type { CoreServices } from '../../../../runtime/plugins/context.js';
import { MessageBus } from '../../../../runtime/bus/message-bus.js';
import { MetricsRegistry } from '../../../../runtime/metrics/index.js';
import { createLogger } from '../../../../runtime/log/logger.js';
import { tempDir } from '../../../support/tmp.js';

function core(events: string[] = []) {
  const registry = new MetricsRegistry();
  const logLines: string[] = [];
  const log: Logger = createLogger({ format: 'json', write: (l) => logLines.push(l) });
  const errors: [string, string][] = [];
  const dir = tempDir();
  const services: CoreServices = {
    log,
    dataDir: dir.path,
    runtime: { version: 't', configDir: dir.path, controlPlaneUrl: () => 'http://x', dataDir: dir.path, startedAt: 0, installMethod: 'source tree', storage: () => ({ backend: 'none' }), plugins: () => [] },
    metrics: (p) => registry.forPlugin(p),
    bus: new MessageBus(registry.core, (p, e) => errors.push([p, String(e)])),
    http: (p) => ({ route: () => events.push(`route:${p}`), authScheme: () => {}, websocket: () => {}, pageStylesheet: () => {}, audit: async () => {}, whenSessionEnds: () => () => {} }),
    deliveryQueue: () => { throw new Error('not used'); },
    validate: () => {},
    reportError: (p, e, what) => errors.push([p, `${what}: ${String(e)}`]),
  };
  return { services, log, logLines, errors, registry, cleanup: dir.cleanup };
}

const recorder = (events: string[], name: string, extra: Partial<PluginDefinition> = {}) =>
  definePlugin({
    name, version: '1',
    setup: () => {
      events.push(`setup:${name}`);
      return { start: () => { events.push(`start:${name}`); }, stop: () => { events.push(`stop:${name}`); } };
    },
    ...extra,
  });

test('setup and start walk the order; stop walks it backwards, once', async () => {
  const events: string[] = [];
  const c = core(events);
  const host = new PluginHost([{ def: recorder(events, 'a'), config: {} }, { def: recorder(events, 'b'), config: {} }], c.services, c.log);
  await host.setup();
  await host.start();
  await Promise.all([host.stop(1000), host.stop(1000)]);
  await host.stop(1000);
  assert.equal(events, ['setup:a', 'setup:b', 'start:a', 'start:b', 'stop:b', 'stop:a']);
  c.cleanup();
});

test('a setup failure names the plugin and the cause; earlier plugins can still be stopped', async () => {
  const events: string[] = [];
  const c = core(events);
  const bad = definePlugin({ name: 'bad', version: '1', setup: () => { throw new Error('no upstream configured'); } });
  const host = new PluginHost([{ def: recorder(events, 'a'), config: {} }, { def: bad, config: {} }], c.services, c.log);
  try {
    await host.setup();
    assert.unreachable('setup should throw');
  } catch (err) {
    assert.is((err as { code: string }).code, 'VIGIL_ERR_PLUGIN_SETUP');
    assert.match((err as Error).message, /plugin bad failed in setup: no upstream configured/);
  }
  await host.stop(1000);
  assert.equal(events, ['setup:a', 'stop:a']);
  c.cleanup();
});

test('a start failure names the plugin; stop still reaches plugins that never started', async () => {
  const events: string[] = [];
  const c = core(events);
  const bad = definePlugin({ name: 'late', version: '1', setup: () => ({ start: async () => { throw new Error('port busy'); }, stop: () => { events.push('stop:late'); } }) });
  const host = new PluginHost([{ def: bad, config: {} }, { def: recorder(events, 'b'), config: {} }], c.services, c.log);
  await host.setup();
  let message = '';
  await host.start().catch((e: Error) => { message = e.message; });
  assert.match(message, /plugin late failed to start: port busy/);
  await host.stop(1000);
  assert.equal(events, ['setup:b', 'stop:b', 'stop:late']);
  c.cleanup();
});

test('a stop that hangs is bounded and the others still stop', async () => {
  const events: string[] = [];
  const c = core(events);
  const hang = definePlugin({ name: 'hang', version: '1', setup: () => ({ stop: () => new Promise<void>(() => {}) }) });
  const host = new PluginHost([{ def: recorder(events, 'a'), config: {} }, { def: hang, config: {} }], c.services, c.log);
  await host.setup();
  await host.start();
  await host.stop(200);
  assert.equal(events, ['setup:a', 'start:a', 'stop:a']);
  assert.ok(c.logLines.some((l) => l.includes('plugin hang failed to stop cleanly')));
  c.cleanup();
});

test('core services must be declared in needs; services are looked up by name', async () => {
  const c = core();
  let storeError = '';
  let got: unknown;
  const provider = definePlugin({ name: 'prov', version: '1', provides: ['greeter'], setup: (ctx) => { ctx.services.provide('greeter' as never, { hi: 1 } as never); } });
  const user = definePlugin({
    name: 'user', version: '1', needs: ['greeter'],
    setup: (ctx) => {
      try { void ctx.store; } catch (e) { storeError = (e as Error).message; }
      got = ctx.services.get('greeter' as never);
    },
  });
  const host = new PluginHost([{ def: provider, config: {} }, { def: user, config: {} }], c.services, c.log);
  await host.setup();
  assert.match(storeError, /plugin user uses ctx.store without listing "store" in needs/);
  assert.equal(got, { hi: 1 });
  c.cleanup();
});

test('a worker pool may open the store only for a plugin that lists "store" in needs', async () => {
  const c = core();
  const made: string[] = [];
  c.services.workers = (p) => ({ pool: (o) => { made.push(`${p}:${o.name}`); return {} as never; }, batcher: () => ({}) as never });
  c.services.store = () => ({}) as never;
  let refused = '';
  const without = definePlugin({
    name: 'nostore', version: '1', needs: ['workers'],
    setup: (ctx) => {
      ctx.workers.pool({ filename: 'x.js', name: 'plain' });
      try { ctx.workers.pool({ filename: 'x.js', name: 'writer', store: true }); } catch (e) { refused = (e as Error).message; }
    },
  });
  const withStore = definePlugin({
    name: 'withstore', version: '1', needs: ['workers', 'store'],
    setup: (ctx) => { ctx.workers.pool({ filename: 'x.js', name: 'writer', store: true }); },
  });
  const host = new PluginHost([{ def: without, config: {} }, { def: withStore, config: {} }], c.services, c.log);
  await host.setup();
  assert.match(refused, /plugin nostore asks for a worker pool with store: true without listing "store" in needs/);
  assert.equal(made, ['nostore:plain', 'withstore:writer']);
  c.cleanup();
});

test('contain() logs and counts a throwing callback instead of throwing', async () => {
  const c = core();
  let wrapped!: () => void;
  const def = definePlugin({ name: 'timers', version: '1', setup: (ctx) => { wrapped = ctx.contain('tick', () => { throw new Error('tick failed'); }); } });
  const host = new PluginHost([{ def, config: {} }], c.services, c.log);
  await host.setup();
  wrapped();
  assert.equal(c.errors, [['timers', 'tick: Error: tick failed']]);
  c.cleanup();
});

test.run();
