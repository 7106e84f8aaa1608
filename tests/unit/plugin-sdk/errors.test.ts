import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  ConfigValueError, defineErrorCodes, errorCatalogueOf, HttpError, httpError, PermanentError, SdkErrors, statusOf, VigilError,
  type ErrorCodeOf,
} from '@vigil/plugin-sdk';

const doc = { meaning: 'Something went wrong.', action: 'Do the right thing.' };

test('codes are VIGIL_ERR_<PREFIX>_<KEY>, keyed by their suffix, in a frozen object that holds nothing else', () => {
  const codes = defineErrorCodes('DEMO', { UPSTREAM_TIMEOUT: doc, BAD_INPUT2: doc });
  assert.is(codes.UPSTREAM_TIMEOUT, 'VIGIL_ERR_DEMO_UPSTREAM_TIMEOUT');
  assert.is(codes.BAD_INPUT2, 'VIGIL_ERR_DEMO_BAD_INPUT2');
  assert.equal(Object.keys(codes), ['UPSTREAM_TIMEOUT', 'BAD_INPUT2']);
  assert.is(JSON.stringify(codes), '{"UPSTREAM_TIMEOUT":"VIGIL_ERR_DEMO_UPSTREAM_TIMEOUT","BAD_INPUT2":"VIGIL_ERR_DEMO_BAD_INPUT2"}');
  assert.ok(Object.isFrozen(codes));
  assert.throws(() => { (codes as Record<string, string>).OTHER = 'x'; });
  // @ts-expect-error: a key the catalogue does not define is a type error
  assert.is(codes.UPSTREAM_TIMOUT, undefined);
  const one: ErrorCodeOf<typeof codes> = codes.BAD_INPUT2;
  assert.is(one, 'VIGIL_ERR_DEMO_BAD_INPUT2');
});

test('errorCatalogueOf reads the prefix and every code with its docs back, and nothing from other values', () => {
  const codes = defineErrorCodes('DEMO', { A: { meaning: 'm-a', action: 'a-a' }, B: { meaning: 'm-b', action: 'a-b' } });
  assert.equal(errorCatalogueOf(codes), {
    prefix: 'DEMO',
    codes: [{ code: 'VIGIL_ERR_DEMO_A', meaning: 'm-a', action: 'a-a' }, { code: 'VIGIL_ERR_DEMO_B', meaning: 'm-b', action: 'a-b' }],
  });
  for (const other of [undefined, null, 'VIGIL_ERR_DEMO_A', 3, { A: 'VIGIL_ERR_DEMO_A' }, { ...codes }, Object.create(codes), () => {}]) {
    assert.is(errorCatalogueOf(other), undefined, String(other));
  }
});

test('a prefix or key that is not [A-Z][A-Z0-9_]*, or an empty meaning or action, is refused at definition', () => {
  const refused = (define: () => unknown, message: RegExp): void => {
    try {
      define();
      assert.unreachable('accepted');
    } catch (err) {
      assert.instance(err, VigilError);
      assert.is((err as VigilError).code, SdkErrors.CATALOGUE);
      assert.match((err as Error).message, message);
    }
  };
  for (const prefix of ['demo', '1DEMO', '', 'DE-MO', '_DEMO']) refused(() => defineErrorCodes(prefix, { A: doc }), /prefix must be upper-case/);
  for (const key of ['upstreamTimeout', 'A-B', '9A', '_A']) {
    refused(() => defineErrorCodes('DEMO', { [key]: doc }), new RegExp(`key "${key}" must be upper-case`));
  }
  refused(() => defineErrorCodes('DEMO', { A: { meaning: ' ', action: 'x' } }), /A needs a non-empty meaning/);
  refused(() => defineErrorCodes('DEMO', { A: { meaning: 'x', action: '' } }), /A needs a non-empty action/);
  refused(() => defineErrorCodes('DEMO', { A: { meaning: 'x' } as never }), /A needs a non-empty action/);
});

test('a status is an HTTP error status; it is refused otherwise, at definition', () => {
  for (const status of [200, 302, 399, 600, 404.5, '404', Number.NaN]) {
    try {
      defineErrorCodes('DEMO', { A: { ...doc, status: status as number } });
      assert.unreachable(`status ${String(status)} accepted`);
    } catch (err) {
      assert.is((err as VigilError).code, SdkErrors.CATALOGUE);
      assert.match((err as Error).message, /A has status .*; a code's status is an HTTP error status, 400 to 599/);
    }
  }
});

test('httpError answers with the status of the code\'s entry, and the catalogue lists it', () => {
  const codes = defineErrorCodes('STATUSDEMO', { GONE: { ...doc, status: 410 }, BUSY: { ...doc, status: 503 }, QUIET: doc });
  const gone = httpError(codes.GONE, 'it went');
  assert.instance(gone, HttpError);
  assert.equal([gone.status, gone.code, gone.message, gone.headers], [410, 'VIGIL_ERR_STATUSDEMO_GONE', 'it went', undefined]);
  assert.equal(httpError(codes.BUSY, 'later', { headers: { 'Retry-After': '3' } }).headers, { 'Retry-After': '3' });
  assert.equal([statusOf(codes.GONE), statusOf(codes.BUSY), statusOf(codes.QUIET)], [410, 503, undefined]);
  assert.equal(errorCatalogueOf(codes)?.codes.map((c) => c.status), [410, 503, undefined]);
  // @ts-expect-error: a code without a status cannot be thrown over HTTP
  const quiet = httpError(codes.QUIET, 'no status');
  assert.is(quiet.status, 500, 'a cast past the type is answered as the bug it is');
  assert.match(quiet.message, /has no status in its catalogue/);
});

test('the SDK\'s own errors take their codes from its catalogue', () => {
  assert.is(new PermanentError('no').code, SdkErrors.PERMANENT);
  assert.is(new PermanentError('no', { code: 'VIGIL_ERR_DEMO_A' }).code, 'VIGIL_ERR_DEMO_A');
  assert.is(new ConfigValueError('rules[0].name', 'taken').code, SdkErrors.CONFIG_VALUE);
  assert.is(errorCatalogueOf(SdkErrors)?.prefix, 'SDK');
});

test.run();
