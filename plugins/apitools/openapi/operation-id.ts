// Readable, stable operation ids from a method and a path: `GET /users/{id}` → `getUserById`, `GET /users` →
// `listUsers`, `POST /users` → `createUser`. Generated clients name their methods after them.
import { singular } from '../../../gateway/fields/api-fields.js';

const VERSION = /^v[0-9]+(\.[0-9]+)*$/i;
/** Segments that add nothing to a name: every route of most APIs starts with them. */
const SILENT = new Set(['api', 'rest']);

const words = (text: string) => text.split(/[^A-Za-z0-9]+/).filter(Boolean);
const pascal = (text: string) => words(text).map((w) => w[0].toUpperCase() + w.slice(1).toLowerCase()).join('');

export function operationIdFor(method: string, path: string): string {
  const segments = path.split('/').filter(Boolean);
  const isParam = (s: string) => s.startsWith('{') && s.endsWith('}');
  const literals = segments.filter((s) => !isParam(s) && !VERSION.test(s) && !SILENT.has(s.toLowerCase()) && words(s).length > 0);
  let lastLiteral = -1;
  for (let i = segments.length - 1; i >= 0; i--) if (!isParam(segments[i])) { lastLiteral = i; break; }
  const trailing = segments.slice(lastLiteral + 1).filter(isParam).map((s) => s.slice(1, -1));
  const endsInLiteral = trailing.length === 0 && literals.length > 0;
  const last = literals[literals.length - 1];
  const plural = last !== undefined && singular(last) !== last.toLowerCase().replace(/-/g, '_');
  const m = method.toLowerCase();
  const verb = m === 'get' ? (endsInLiteral && plural ? 'list' : 'get')
    : m === 'post' ? (endsInLiteral && plural ? 'create' : 'post')
      : m === 'put' ? 'update' : m;
  // A list keeps its collection plural (`listUserOrders`); everything else names one thing (`createUserOrder`).
  const nouns = literals.map((l, i) => (verb === 'list' && i === literals.length - 1 ? pascal(l) : pascal(singular(l))));
  const by = trailing.length > 0 ? `By${trailing.map(pascal).join('And')}` : '';
  return `${verb}${nouns.join('') || 'Root'}${by}`;
}
