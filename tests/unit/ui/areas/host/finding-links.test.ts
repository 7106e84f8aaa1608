import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fixLink, scoreTone } from '../../../../../ui/src/areas/host/finding-links.js';

const pages = [{ path: '/host' }, { path: '/host/logs' }, { path: '/host/processes' }, { path: '/llm/traces/:id' }];

test('a finding links to the page the server names, with words for its kind of fix', () => {
  assert.equal(fixLink('memory', '/host/processes?sort=mem', pages), { href: '/host/processes?sort=mem', label: 'See what uses memory' });
  assert.equal(fixLink('services', '/host/logs?prio=err', pages), { href: '/host/logs?prio=err', label: 'Read the errors in the logs' });
  assert.equal(fixLink('odd', '/llm/traces/abc', pages)?.label, 'Go where it can be fixed');
});

test('a page this build does not have, or another origin, gets no link', () => {
  assert.is(fixLink('updates', '/host/terminal', pages), null);
  assert.is(fixLink('clean', '//evil.example/host', pages), null);
  assert.is(fixLink('clean', 'https://evil.example/', pages), null);
});

test('score tones follow the verdicts', () => {
  assert.is(scoreTone(95), 'success');
  assert.is(scoreTone(75), 'success');
  assert.is(scoreTone(60), 'warning');
  assert.is(scoreTone(49), 'danger');
});

test.run();
