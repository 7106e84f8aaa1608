import { test } from 'uvu';
import * as assert from 'uvu/assert';
import plugin from '../../../../plugins/governance/index.js';
import type { PluginContext } from '@vigil/plugin-sdk';
import type { RedactionService } from '../../../../plugins/governance/types.js';
import { governExchange } from '../../../../plugins/governance/govern.js';
import { testCommand } from '../../../../plugins/governance/test-command.js';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

test('declares the redaction service and the test command', () => {
  assert.is(plugin.name, 'governance');
  assert.equal(plugin.provides, ['redaction']);
  const [command] = plugin.commands ?? [];
  assert.is(command.name, testCommand.name);
  assert.equal(command.flags, testCommand.flags);
});

test('the listed test command runs the real one when invoked', async () => {
  const err: string[] = [];
  const code = await plugin.commands![0].run({ flags: {}, positionals: [] }, { out: () => {}, err: (t) => err.push(t), cwd: process.cwd(), env: {} });
  assert.is(code, 2);
  assert.match(err.join(''), /vigil test -config/);
});

test('setup provides { workerModule, detectors, govern }; the worker module exists next to it', async () => {
  const provided: Record<string, unknown> = {};
  const ctx = { services: { provide: (name: string, service: unknown) => { provided[name] = service; } } } as unknown as PluginContext;
  await plugin.setup(ctx, {});
  const service = provided.redaction as RedactionService;
  assert.ok(service, 'nothing provided');
  assert.is(service.govern, governExchange);
  assert.instance(service.workerModule, URL);
  assert.ok(existsSync(fileURLToPath(service.workerModule)), String(service.workerModule));
  assert.equal(service.detectors.detect('ada@example.com').map((d) => d.kind), ['email']);
});

test.run();
