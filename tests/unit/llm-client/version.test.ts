// clients/node/src/version.ts: the User-Agent's version is the package's.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { CLIENT_VERSION } from '../../../clients/node/src/version.js';
import { fromRoot } from '../../support/paths.js';

test('CLIENT_VERSION equals clients/node/package.json\'s version', () => {
  assert.is(CLIENT_VERSION, JSON.parse(readFileSync(fromRoot('clients/node/package.json'), 'utf8')).version);
});

test.run();
