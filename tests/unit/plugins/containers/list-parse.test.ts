// Large list answers go to the worker pool, small ones are parsed in place; both give the same rows.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { IN_PLACE_BYTES, offloadingParser, parseList } from '../../../../plugins/containers/list-parse.js';
import { fixture } from '../../../support/paths.js';

const pods = readFileSync(fixture('containers', 'kube-pods.json'));

test('a PodList parses to pods; metadata.continue says more exist', () => {
  const parsed = parseList('kubernetes', pods);
  assert.is(parsed.pods.length, 3);
  assert.is(parsed.more, false);
  const more = JSON.parse(pods.toString());
  more.metadata.continue = 'eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ';
  assert.is(parseList('kubernetes', Buffer.from(JSON.stringify(more))).more, true);
});

test('an answer over the in-place bound is handed to the worker; one under it is not', async () => {
  const handed: number[] = [];
  const parse = offloadingParser(async (task) => { handed.push(task.body.length); return parseList(task.format, task.body); });
  const small = await parse('docker', readFileSync(fixture('containers', 'docker-containers.json')));
  assert.is(small.containers.length, 4);
  assert.equal(handed, []);
  const many = Array.from({ length: 2000 }, (_, i) => ({ Id: `c${i}`.padEnd(64, '0'), Names: [`/n${i}`], Image: 'img', State: 'running', Status: 'Up', Ports: [] }));
  const big = Buffer.from(JSON.stringify(many));
  assert.ok(big.length > IN_PLACE_BYTES);
  const parsed = await parse('podman', big);
  assert.is(parsed.containers.length, 2000);
  assert.is(parsed.containers[0].env, 'podman');
  assert.equal(handed, [big.length]);
});

test.run();
