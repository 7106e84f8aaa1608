// One operation of the inferred document from its observations: parameters (path, query, the headers that matter),
// the request body, and one response per status seen.
import { STATUS_CODES } from 'node:http';
import type { FieldObservation } from '../../../gateway/fields/api-fields.js';
import type { JsonSchemaObject, OperationObject, ParameterObject, ResponseObject } from './document.js';
import { bodySchema } from './body-schema.js';
import { isDocumentedRequestHeader, isDocumentedResponseHeader } from './documented-headers.js';
import type { ObservedOperation } from './infer-spec.js';
import { pathParams } from './route-paths.js';
import { isRequired, valueSchema } from './value-schema.js';

const JSON_TYPE = 'application/json';
const byName = (a: FieldObservation, b: FieldObservation) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export function buildOperation(op: ObservedOperation, minPresence: number): OperationObject {
  const at = (location: FieldObservation['location']) => op.fields.filter((f) => f.location === location);
  const exchanges = at('exchange').reduce((n, f) => n + f.count, 0);
  // Keys in the order people write them: tags, parameters, requestBody, responses.
  const operation = {} as OperationObject;
  const tag = op.path.split('/').find((s) => s !== '' && !s.startsWith('{') && !/^(api|v[0-9]+(\.[0-9]+)*)$/i.test(s));
  if (tag !== undefined) operation.tags = [tag];

  const parameters: ParameterObject[] = [];
  for (const name of pathParams(op.path)) {
    const row = at('path').find((f) => f.name === name);
    const schema = row ? valueSchema(row, minPresence) : {};
    schema.type ??= 'string';
    const merged = op.merged.find((m) => m.name === name);
    const param: ParameterObject = { name, in: 'path', required: true, schema };
    if (merged?.joined) param.description = `Also took ${merged.literals} word-like value${merged.literals === 1 ? '' : 's'} with the same shape (sibling literals joined).`;
    else if (merged) param.description = `Takes the ${merged.literals} distinct word-like values seen at this position (sibling literals merged).`;
    parameters.push(param);
  }
  // `*` is the recorder's name for query parameters whose names are values (ids as keys): no one parameter.
  for (const f of at('query').filter((q) => q.name !== '*').sort(byName)) {
    parameters.push({ name: f.name, in: 'query', required: isRequired(f, minPresence), schema: valueSchema(f, minPresence) });
  }
  for (const f of at('request_header').filter((h) => isDocumentedRequestHeader(h.name)).sort(byName)) {
    parameters.push({ name: f.name, in: 'header', required: isRequired(f, minPresence), schema: valueSchema(f, minPresence) });
  }
  if (parameters.length > 0) operation.parameters = parameters;

  const request = at('request_body');
  const requestSchema = bodySchema(request, minPresence);
  if (requestSchema !== undefined) {
    const root = request.find((f) => f.name === '$');
    const present = root === undefined ? 0 : root.count / Math.max(root.parents || exchanges, 1);
    operation.requestBody = { required: present >= minPresence, content: { [JSON_TYPE]: { schema: requestSchema } } };
  }

  operation.responses = {};
  const statuses = new Set<number>();
  for (const f of op.fields) if (f.location === 'exchange' || f.location === 'response_body' || f.location === 'response_header') statuses.add(f.status);
  for (const status of [...statuses].filter((s) => s >= 100 && s <= 599).sort((a, b) => a - b)) {
    operation.responses[String(status)] = response(op, status, minPresence);
  }
  // OpenAPI wants at least one response; a route seen only from its request side has this one.
  if (Object.keys(operation.responses).length === 0) operation.responses.default = { description: 'No response observed' };

  const seen = op.fields.reduce((acc, f) => [Math.min(acc[0], f.firstSeen), Math.max(acc[1], f.lastSeen)], [Infinity, -Infinity]);
  operation['x-vigil-observed'] = {
    exchanges,
    first_seen: Number.isFinite(seen[0]) ? new Date(seen[0]).toISOString() : null,
    last_seen: Number.isFinite(seen[1]) ? new Date(seen[1]).toISOString() : null,
  };
  return operation;
}

function response(op: ObservedOperation, status: number, minPresence: number): ResponseObject {
  const out: ResponseObject = { description: STATUS_CODES[status] ?? `Status ${status}` };
  const headers: NonNullable<ResponseObject['headers']> = {};
  const documented = op.fields
    .filter((f) => f.location === 'response_header' && f.status === status && isDocumentedResponseHeader(f.name))
    .sort(byName);
  for (const f of documented) {
    const header: { schema: JsonSchemaObject; required?: boolean } = { schema: valueSchema(f, minPresence) };
    if (isRequired(f, minPresence)) header.required = true;
    headers[f.name] = header;
  }
  if (Object.keys(headers).length > 0) out.headers = headers;
  const schema = bodySchema(op.fields.filter((f) => f.location === 'response_body' && f.status === status), minPresence);
  if (schema !== undefined) out.content = { [JSON_TYPE]: { schema } };
  return out;
}
