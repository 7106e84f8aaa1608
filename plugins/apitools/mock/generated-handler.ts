// The stateless half: an answer made from the response schema, the same for the same seed and request path; or the
// example the LLM wrote at start for that operation and status.
import { generateValue, singular } from './generate-value.js';
import { diceFor, type MockAnswer, type MockContext, type MockRequest } from './mock-answer.js';
import { responseFor, type MockOperation, type MockResponse } from './mock-operations.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `Prefer: code=404` (Prism's convention): the declared response a client asks for, to test its error paths. */
function preferred(op: MockOperation, header: string | string[] | undefined): MockResponse | undefined {
  const m = /(?:^|[,;\s])code=(\d{3})\b/.exec(Array.isArray(header) ? header.join(',') : header ?? '');
  return m ? responseFor(op, Number(m[1])) : undefined;
}

export function handleGenerated(ctx: MockContext, op: MockOperation, req: MockRequest): MockAnswer {
  const response = preferred(op, req.headers.prefer) ?? op.success ?? op.responses[0];
  if (!response) return { status: 200, mode: 'generated' };
  const base = { status: response.code, mediaType: response.mediaType };
  if (!response.mediaType || response.code === 204 || response.code === 304) return { ...base, mode: 'generated' };
  const cached = ctx.llmExamples.get(`${op.key} ${response.key}`);
  if (cached !== undefined) return { ...base, mode: 'llm', body: structuredClone(cached) };
  if (response.example !== undefined) return { ...base, mode: 'example', body: response.example };
  const schema = response.schema ?? (response.json ? {} : { type: 'string' });
  // The last literal segment names the resource: `/products/{sku}` answers a product.
  const resource = singular(op.path.template.split('/').filter((s) => s && !s.includes('{')).pop() ?? '');
  const value = generateValue(schema, diceFor(ctx, op.key, req.routePath, response.key), resource);
  // Path parameters echo into the properties of the same name: GET /products/SKU-1 answers `{ "sku": "SKU-1" }`.
  if (isObject(value) && response.schema) {
    for (const [name, raw] of Object.entries(req.params)) {
      if (!(name in value)) continue;
      const before = value[name];
      value[name] = /^-?\d+(\.\d+)?$/.test(raw) && typeof before === 'number' ? Number(raw) : raw;
      if (!ctx.check(response.schema, value)) value[name] = before;
    }
  }
  return { ...base, mode: 'generated', body: value };
}
