import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  ConfigValueError, defineErrorCodes, errorCatalogueOf, PermanentError, SdkErrors, VigilError, type ErrorCodeOf,
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

test('the SDK\'s own errors take their codes from its catalogue', () => {
  assert.is(new PermanentError('no').code, SdkErrors.PERMANENT);
  assert.is(new PermanentError('no', { code: 'VIGIL_ERR_DEMO_A' }).code, 'VIGIL_ERR_DEMO_A');
  assert.is(new ConfigValueError('rules[0].name', 'taken').code, SdkErrors.CONFIG_VALUE);
  assert.is(errorCatalogueOf(SdkErrors)?.prefix, 'SDK');
});

test.run();
