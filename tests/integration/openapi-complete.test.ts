// The API listing of a running `vigil run` with every plugin that serves routes: each operation declares what it
// answers on success (a JSON Schema, or a media type that is not JSON) and the one error shape, and every `$ref` resolves.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startDashboard, type Dashboard } from '../support/dashboard.js';

type Content = Record<string, { schema?: unknown }>;
type Operation = { operationId: string; responses: Record<string, { description: string; content?: Content }> };
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

/** Statuses that carry no body by definition. */
const BODILESS = /^(101|204|3\d\d)$/;

function refsOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsOf(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsOf(v, out);
    }
  }
  return out;
}

let d: Dashboard | undefined;

test('every operation of /api has a success response with a schema or a declared media type, and the error shape', async () => {
  d = await startDashboard({
    llm: true,
    extra: 'evaluators:\n  providers:\n    judge: { base_url: "http://127.0.0.1:9", model: m, api_key: k, timeout: 1s }\n',
  });
  const res = await fetch(`${d.url}/api`, { headers: { authorization: `Bearer ${d.token}` } });
  assert.is(res.status, 200);
  const doc = (await res.json()) as Doc;
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })));
  // Every plugin that serves routes is on: the listing is the whole API, not a corner of it.
  assert.ok(operations.length >= 60, `only ${operations.length} operations`);
  for (const tag of ['control-plane', 'ui', 'capture', 'governance', 'llm', 'evaluators', 'proxy']) {
    assert.ok(operations.some(({ op }) => (op as { tags?: string[] }).tags?.includes(tag)), `no operation of ${tag}`);
  }
  const problems: string[] = [];
  for (const { where, op } of operations) {
    const success = Object.entries(op.responses).filter(([status]) => /^[123]\d\d$/.test(status));
    if (success.length === 0) problems.push(`${where}: no success response`);
    for (const [status, response] of success) {
      if (BODILESS.test(status) && response.content === undefined) continue;
      const media = Object.entries(response.content ?? {});
      if (media.length === 0) problems.push(`${where}: ${status} declares neither a schema nor a media type`);
      for (const [type, { schema }] of media) if (type.includes('json') && !schema) problems.push(`${where}: ${status} ${type} has no schema`);
    }
    for (const range of ['4XX', '5XX']) {
      if (refsOf(op.responses[range]).join() !== '#/components/schemas/ErrorAnswer') problems.push(`${where}: ${range} is not the error shape`);
    }
  }
  assert.equal(problems, []);
  const unresolved = refsOf(doc).filter((ref) => !(ref.replace('#/components/schemas/', '') in doc.components.schemas));
  assert.equal(unresolved, [], 'every $ref names a component');
});

test.after(async () => { await d?.stop(); });

test.run();
