// The one registry of areas (ui/src/areas/index.ts): what every area must satisfy for the shell, the palette and
// the server's page routes to work from it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { areas, systemPages } from '../../../../ui/src/areas/index.js';
import { runVigil } from '../../../support/vigil-process.js';
import { tempDir } from '../../../support/tmp.js';

/** Segments the control plane or its plugins answer at: a page there would be shadowed or shadow them. */
const RESERVED = ['api', 'assets', 'login', 'logout', 'metrics', 'v1'];

test('area ids are unique URL segments that no server path uses', () => {
  const ids = areas.map((a) => a.id);
  assert.equal([...new Set(ids)], ids);
  for (const id of ids) {
    assert.match(id, /^[a-z][a-z0-9-]*$/);
    assert.not.ok(RESERVED.includes(id), id);
  }
  for (const page of systemPages) assert.not.ok(ids.includes(page.path.split('/')[1]), `${page.path} collides with an area`);
});

test('every page lies under its area, paths are unique, and each page loads lazily', () => {
  const seen = new Set<string>();
  for (const area of areas) {
    for (const page of area.pages) {
      assert.ok(page.path === `/${area.id}` || page.path.startsWith(`/${area.id}/`), `${page.path} is outside /${area.id}`);
      assert.not.ok(seen.has(page.path), `${page.path} twice`);
      seen.add(page.path);
      assert.type(page.load, 'function');
      assert.ok(page.title.trim(), `${page.path} has a title`);
    }
    if (area.status === 'available') assert.ok(area.pages.length > 0, `${area.id} is available but has no page`);
  }
});

test('shortcuts are unique two-key sequences; command ids are unique', () => {
  const shortcuts = [...areas.flatMap((a) => a.pages), ...systemPages].map((p) => p.shortcut).filter(Boolean) as string[];
  assert.equal([...new Set(shortcuts)], shortcuts);
  for (const s of shortcuts) assert.match(s, /^[a-z] [a-z]$/);
  // Every page the sidebar lists can be reached from the keyboard.
  for (const page of [...areas.flatMap((a) => a.pages), ...systemPages].filter((p) => p.nav !== false && !p.path.includes(':'))) {
    assert.ok(page.shortcut, `${page.path} has a shortcut`);
  }
  const commands = areas.flatMap((a) => a.commands ?? []).map((c) => c.id);
  assert.equal([...new Set(commands)], commands);
});

test('every area says what it is and which plugins turn it on; an available one shows its snippet, a planned one none', () => {
  for (const area of areas) {
    assert.ok(area.description.length > 40, `${area.id}: a description`);
    assert.ok(area.requires.length > 0, `${area.id}: requires a plugin`);
    if (area.status === 'planned') {
      // Its plugins are not in this build: any config for them would fail `vigil validate`.
      assert.is(area.enableSnippet, undefined, `${area.id}: a planned area shows no snippet`);
      continue;
    }
    assert.ok(area.enableSnippet !== undefined && area.enableSnippet.split('\n').length <= 3, `${area.id}: at most three lines`);
    assert.type(parse(area.enableSnippet!), 'object', `${area.id}: the snippet parses`);
  }
});

test('an available area\'s snippet is real config: vigil validate accepts it, and it enables the area\'s plugin', async () => {
  const dir = tempDir();
  try {
    for (const area of areas.filter((a) => a.status === 'available')) {
      const file = join(dir.path, `${area.id}.yaml`);
      writeFileSync(file, `data_dir: ${join(dir.path, 'data')}\n${area.enableSnippet!}\n`);
      const r = await runVigil(['validate', '-config', file]);
      assert.is(r.code, 0, `${area.id}: ${r.stdout}${r.stderr}`);
      for (const plugin of area.requires) assert.match(r.stdout + r.stderr, new RegExp(`\\b${plugin}\\b`), `${area.id} enables ${plugin}`);
    }
  } finally {
    dir.cleanup();
  }
});

test('a record search only claims what looks like its ids', () => {
  const gateway = areas.find((a) => a.id === 'gateway')!;
  assert.ok(gateway.searchRecords!.matches('0190f3a2-7c4d-7b1e-9a3f-2c1d4e5f6a7b'));
  assert.ok(gateway.searchRecords!.matches(' 0190F3A2-7C4D-7B1E-9A3F-2C1D4E5F6A7B '));
  assert.not.ok(gateway.searchRecords!.matches('overview'));
  assert.not.ok(gateway.searchRecords!.matches('0190f3a2-7c4d-4b1e-9a3f-2c1d4e5f6a7b'), 'a UUIDv4 is not a record id');
  const llm = areas.find((a) => a.id === 'llm')!;
  assert.ok(llm.searchRecords!.matches('0190f3a2-7c4d-4b1e-9a3f-2c1d4e5f6a7b'), 'a trace id may be any UUID (a client\'s own)');
  assert.ok(llm.searchRecords!.matches(' 0190F3A2-7C4D-7B1E-9A3F-2C1D4E5F6A7B '));
  assert.not.ok(llm.searchRecords!.matches('traces'));
});

test.run();
