import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { describeUserAgent } from '../../../../ui/src/settings/user-agent.js';

test('a browser and its system, as a person names them', () => {
  const cases: [string, string][] = [
    ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'Firefox on Linux'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36', 'Chrome on Windows'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0', 'Edge on Windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 'Safari on macOS'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'Safari on iOS'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36', 'Chrome on Android'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36', 'Headless Chrome on Linux'],
    ['curl/8.5.0', 'curl'],
  ];
  for (const [ua, name] of cases) assert.is(describeUserAgent(ua), name, ua);
});

test('an unknown client keeps its own words, cut short; none at all is said so', () => {
  assert.is(describeUserAgent('sessions-test'), 'sessions-test');
  assert.is(describeUserAgent(`my-script/${'1.'.repeat(50)}`).length, 60);
  assert.ok(describeUserAgent(`my-script/${'1.'.repeat(50)}`).endsWith('…'));
  assert.is(describeUserAgent(null), 'Unknown client');
  assert.is(describeUserAgent(''), 'Unknown client');
});

test.run();
