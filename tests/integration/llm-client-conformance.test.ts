// The wire-contract conformance suite (docs/llm-wire-contract.md, "Conformance"): every client in
// tests/support/conformance/drivers.ts is run through its driver against a scripted `POST /v1/traces` on loopback,
// once per answer the contract names. Each case asserts what reached the server (batches, their sizes and order,
// retries and the waits between them, what was never retried) and what the client counted ({"sent", "dropped"}).
// The waits are checked from below only (a client must wait at least so long); nothing here measures speed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CASES, DEFAULTS, KEY } from '../support/conformance/cases.js';
import { DRIVERS, type ClientDriver } from '../support/conformance/drivers.js';
import { runDriver, toolchainPresent } from '../support/conformance/run-driver.js';
import { startScriptedIngest } from '../support/conformance/scripted-ingest.js';

function clientSuite(driver: ClientDriver): void {
  const test = suite(`conformance: ${driver.name}`);
  if (!toolchainPresent(driver)) {
    if (process.env.CI === 'true') {
      test(`${driver.name}: its toolchain (${driver.toolchain}) is installed`, () => {
        assert.unreachable(`${driver.toolchain} is missing: install it (.ci/run's need list) so the ${driver.name} client is tested`);
      });
    } else {
      test(`${driver.name}: not run here, ${driver.toolchain} is missing (under CI=true this fails)`, () => {
        console.warn(`conformance: the ${driver.name} client was not run: ${driver.toolchain} is missing`);
      });
    }
    test.run();
    return;
  }
  for (const c of CASES) {
    test(c.name, async () => {
      const server = await startScriptedIngest({ key: KEY, script: c.script });
      try {
        const run = await runDriver(driver, { baseUrl: server.url, projectKey: KEY }, { items: c.items, options: { ...DEFAULTS, ...c.options } });
        assert.is(run.code, 0, `the ${driver.name} driver exited ${run.code}:\n${run.stderr}`);
        assert.ok(run.counts, `the ${driver.name} driver printed no {"sent","dropped"} line:\n${run.stdout}\n${run.stderr}`);
        assert.equal(server.violations, [], 'every request keeps the contract');
        c.check({ server, sent: c.items, counts: { sent: run.counts.sent, dropped: run.counts.dropped } });
      } finally {
        await server.close();
      }
    });
  }
  test.run();
}

for (const driver of DRIVERS) clientSuite(driver);
