// The dashboard's API types are generated from the control plane's OpenAPI document (app/api-types). This test
// generates them again from a running Vigil with every built-in plugin on and fails when the committed file differs,
// writing the new one: then `npm run typecheck` shows every page a schema change touches.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { openApiOfEveryPlugin } from '../../app/api-types/every-route.js';
import { apiTypesModule } from '../../app/api-types/openapi-to-ts.js';
import { fromRoot } from '../support/paths.js';

const FILE = 'ui/src/data/api.gen.ts';
const HEADER = [
  'The control plane\'s API types, generated from its OpenAPI document (GET /api) by tests/integration/ui-api-types.test.ts.',
  'Do not edit: change a route\'s schema, then run `npm run api-types` to write this file again.',
].join('\n');

test(`${FILE} is what the routes' schemas declare`, async () => {
  const text = apiTypesModule(await openApiOfEveryPlugin(), HEADER);
  const path = fromRoot(FILE);
  const committed = existsSync(path) ? readFileSync(path, 'utf8') : '';
  if (committed !== text) {
    writeFileSync(path, text);
    assert.unreachable(`${FILE} was out of date and has been written again: run the typecheck, then commit it`);
  }
});

test.run();
