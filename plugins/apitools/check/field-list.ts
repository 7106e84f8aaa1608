// `vigil check --fields FILE`: the fields to check, as lines (`METHOD /path FIELD`, `#` comments) or, for a
// .yaml, .yml or .json file, a document `fields: [{ route: "POST /api/users", field: "$.legacy_id" }, …]`.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CommandIo, JsonSchema } from '@vigil/plugin-sdk';
import { fieldSpec, type FieldSpec } from './field-spec.js';

const DOCUMENT_SCHEMA: JsonSchema = {
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    required: ['route', 'field'],
    additionalProperties: false,
    properties: { route: { type: 'string', minLength: 1 }, field: { type: 'string', minLength: 1 } },
  },
};

/** The fields a file lists; a reason (with the line, or the config error text) when it cannot be read. */
export async function readFieldList(file: string, io: CommandIo): Promise<FieldSpec[] | { error: string }> {
  if (/\.(ya?ml|json)$/i.test(file)) return documentList(file, io);
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, file), 'utf8');
  } catch (err) {
    return { error: `cannot read ${file}: ${(err as Error).message}` };
  }
  const out: FieldSpec[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '' || line.startsWith('#')) continue;
    // The field is the rest of the line: a quoted JSON key may hold spaces.
    const m = /^(\S+)\s+(\S+)\s+(.+)$/.exec(line);
    if (!m) return { error: `${file}:${i + 1}: a line is "METHOD /path FIELD", got "${line}"` };
    const spec = fieldSpec(`${m[1]} ${m[2]}`, m[3]);
    if ('error' in spec) return { error: `${file}:${i + 1}: ${spec.error}` };
    out.push(spec);
  }
  if (out.length === 0) return { error: `${file} lists no field` };
  return out;
}

function documentList(file: string, io: CommandIo): FieldSpec[] | { error: string } {
  try {
    const doc = io.config.load(file);
    doc.validate(['fields'], DOCUMENT_SCHEMA, doc.data.fields);
    const out: FieldSpec[] = [];
    for (const [i, entry] of (doc.data.fields as { route: string; field: string }[]).entries()) {
      const spec = fieldSpec(entry.route, entry.field);
      if ('error' in spec) {
        const at = doc.locate(['fields', i]);
        return { error: `${file}:${at ? `${at.line}:${at.column}` : ''}: fields[${i}]: ${spec.error}` };
      }
      out.push(spec);
    }
    return out;
  } catch (err) {
    return { error: io.config.describe(err)?.trim() ?? `cannot read ${file}: ${(err as Error).message}` };
  }
}
