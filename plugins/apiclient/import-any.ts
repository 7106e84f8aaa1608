// Tells the formats apart and runs the right importer. Runs in the worker (import-task.ts): parsing a 4 MiB document
// is work that grows with its input.
import { parse as parseYaml } from 'yaml';
import { badImport } from './errors.js';
import { importCurl } from './import-curl.js';
import { importInsomnia, isInsomnia } from './import-insomnia.js';
import { importOpenApi, isOpenApi } from './import-openapi.js';
import { importPostman, isPostman } from './import-postman.js';
import { localId, type Imported, type ImportFormat } from './types.js';

export function importText(text: string, format: ImportFormat | 'auto' = 'auto'): Imported {
  const trimmed = text.trim();
  if (format === 'curl' || (format === 'auto' && /^curl\s/.test(trimmed))) {
    const requests = importCurl(trimmed);
    return { format: 'curl', collection: { id: localId('c'), name: 'Imported from curl', requests }, variables: [] };
  }
  let doc: unknown;
  try {
    doc = /^[[{]/.test(trimmed) ? JSON.parse(trimmed) : parseYaml(trimmed, { maxAliasCount: 100 });
  } catch (err) {
    throw badImport(`the text is neither JSON nor YAML nor a curl command: ${(err as Error).message.split('\n')[0]}`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw badImport('the document is not an object: expected a collection, an export or an OpenAPI document');
  const d = doc as Record<string, unknown>;
  if ((format === 'auto' || format === 'postman') && isPostman(d)) return importPostman(d);
  if ((format === 'auto' || format === 'insomnia') && isInsomnia(d)) return importInsomnia(d);
  if ((format === 'auto' || format === 'openapi') && isOpenApi(d)) return importOpenApi(d);
  if (typeof d.swagger === 'string') throw badImport('Swagger 2.0 documents are not imported; convert it to OpenAPI 3 first');
  throw badImport(format === 'auto'
    ? 'not a Postman v2.1 collection (info.schema), an Insomnia v4 export (__export_format: 4) or an OpenAPI 3 document (openapi: 3.x)'
    : `the document is not a ${format} document`);
}
