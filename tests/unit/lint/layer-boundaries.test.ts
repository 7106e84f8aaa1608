// The lint config (eslint.config.js) holds the layers: these probes are linted as if they were files of the tree, and
// an import against the layering must fail the lint while the same import from an allowed place passes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { repoRoot } from '../../support/paths.js';

const eslint = new ESLint({ cwd: repoRoot });

/** Lints `source` as the file `asFile` (relative to the repository), without writing it. */
async function lint(asFile: string, source: string): Promise<{ ok: boolean; output: string }> {
  const [result] = await eslint.lintText(source, { filePath: join(repoRoot, asFile) });
  return { ok: result.errorCount === 0, output: result.messages.map((m) => `${m.ruleId}: ${m.message}`).join('\n') };
}

const cases: { file: string; imports: string; allowed: boolean }[] = [
  { file: 'runtime/probe.ts', imports: '../plugins/proxy/index.js', allowed: false },
  { file: 'runtime/probe.ts', imports: '../sandbox/js/index.js', allowed: false },
  { file: 'runtime/probe.ts', imports: '../policies/compile.js', allowed: false },
  { file: 'runtime/http/probe.ts', imports: '../../app/composition.js', allowed: false },
  { file: 'plugin-sdk/src/probe.ts', imports: '../../runtime/version.js', allowed: false },
  { file: 'sandbox/wasm/probe.ts', imports: '../../policies/compile.js', allowed: false },
  { file: 'policies/probe.ts', imports: '../plugins/governance/index.js', allowed: false },
  { file: 'plugins/proxy/probe.ts', imports: '../capture/index.js', allowed: false },
  // The gateway's kernel sits between policies/ and plugins/: plugins and middleware build on it, it builds on no plugin.
  { file: 'gateway/govern/probe.ts', imports: '../../plugins/governance/index.js', allowed: false },
  { file: 'gateway/records/probe.ts', imports: '../../runtime/version.js', allowed: false },
  { file: 'gateway/govern/probe.ts', imports: '../../policies/compile.js', allowed: true },
  { file: 'policies/probe.ts', imports: '../gateway/govern/govern.js', allowed: false },
  { file: 'plugins/capture/probe.ts', imports: '../../gateway/records/record-writer.js', allowed: true },
  { file: 'middleware/core/probe.ts', imports: '../../gateway/govern/govern.js', allowed: true },
  { file: 'middleware/core/probe.ts', imports: '../../plugins/governance/index.js', allowed: false },
  { file: 'plugins/proxy/probe.ts', imports: '../../runtime/version.js', allowed: false },
  { file: 'plugins/proxy/probe.ts', imports: '../../policies/compile.js', allowed: true },
  { file: 'plugins/proxy/probe.ts', imports: './config.js', allowed: true },
  { file: 'app/probe.ts', imports: '../plugins/proxy/index.js', allowed: true },
  { file: 'runtime/probe.ts', imports: './version.js', allowed: true },
  // The web UI talks to the server over HTTP only, and nothing on the server imports it.
  { file: 'ui/src/probe.ts', imports: '../../runtime/version.js', allowed: false },
  { file: 'ui/src/shell/probe.tsx', imports: '../../../plugin-sdk/src/index.js', allowed: false },
  { file: 'ui/src/probe.ts', imports: '../../plugins/ui/errors.js', allowed: false },
  { file: 'plugins/ui/probe.ts', imports: '../../ui/src/areas/index.js', allowed: false },
  { file: 'runtime/probe.ts', imports: '../ui/src/format/numbers.js', allowed: false },
  { file: 'ui/src/shell/probe.tsx', imports: '../format/numbers.js', allowed: true },
  // A client SDK is published on its own: it speaks the wire contract and imports no server layer, not even the SDK.
  { file: 'clients/node/src/probe.ts', imports: '../../../plugin-sdk/src/index.js', allowed: false },
  { file: 'clients/node/src/probe.ts', imports: '../../../plugins/llm/trace-item.js', allowed: false },
  { file: 'clients/node/src/probe.ts', imports: '../../../runtime/version.js', allowed: false },
  { file: 'plugins/llm/probe.ts', imports: '../../clients/node/src/index.js', allowed: false },
  { file: 'clients/node/src/probe.ts', imports: './trace-item.js', allowed: true },
  // The Express and Koa middleware compose the layers they run in the app's process; nothing on the server imports them.
  { file: 'middleware/core/probe.ts', imports: '../../plugins/governance/govern-worker.js', allowed: true },
  { file: 'middleware/core/probe.ts', imports: '../../runtime/cli/config-files.js', allowed: true },
  { file: 'middleware/core/probe.ts', imports: '../../app/composition.js', allowed: false },
  { file: 'middleware/express/src/probe.ts', imports: '../../../clients/node/src/index.js', allowed: false },
  { file: 'plugins/capture/probe.ts', imports: '../../middleware/core/index.js', allowed: false },
  { file: 'app/probe.ts', imports: '../middleware/core/index.js', allowed: false },
];

for (const c of cases) {
  test(`${c.file} importing ${c.imports}: ${c.allowed ? 'allowed' : 'refused'}`, async () => {
    const r = await lint(c.file, `import * as probe from '${c.imports}';\nexport const seen = probe;\n`);
    assert.is(r.ok, c.allowed, r.output);
    if (!c.allowed) assert.match(r.output, /import-x\/no-restricted-paths/);
  });
}

test.run();
