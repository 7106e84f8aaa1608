// GNOME tweaks: `GET /api/gnome` reads the offered keys with `gsettings get` and `range`, `POST /api/gnome` writes one
// with `gsettings set` after checking the value against its range. Bounds: 9 keys, each gsettings call 5 s at most.
import { closedObject, httpError, type HttpRoutes } from '@vigil/plugin-sdk';
import { DevtoolsErrors } from '../errors.js';
import { GNOME_KEYS, gnomeKey, type GnomeKey } from './gnome-keys.js';
import { encodeValue, parseRange, readValue } from './gsettings-range.js';
import { GsettingsError, type Gsettings } from './gsettings.js';

const value = { type: ['boolean', 'number', 'string'] };

const gnomeSetting = closedObject({
  id: { enum: GNOME_KEYS.map((k) => k.id) },
  schema: { type: 'string' }, key: { type: 'string' }, label: { type: 'string' }, hint: { type: 'string' },
  available: { type: 'boolean', description: 'The schema is installed here.' },
  writable: { type: 'boolean' },
  kind: { enum: ['boolean', 'string', 'enum', 'number', 'other', 'missing'] },
  choices: { type: 'array', items: { type: 'string' } },
  min: { type: ['number', 'null'] }, max: { type: ['number', 'null'] }, integer: { type: 'boolean' },
  value: { oneOf: [{ type: 'null' }, value] },
}, { title: 'GnomeSetting' });

const gnomeSettings = closedObject({
  available: { type: 'boolean', description: 'gsettings and the GNOME desktop schemas are installed.' },
  reason: { type: ['string', 'null'], description: 'Why not, in a sentence.' },
  backend: { type: ['string', 'null'], description: 'GSETTINGS_BACKEND when Vigil\'s environment sets one (keyfile, memory); null: dconf.' },
  settings: { type: 'array', items: gnomeSetting, maxItems: GNOME_KEYS.length },
}, { title: 'GnomeSettings' });

const DESKTOP_SCHEMA = 'org.gnome.desktop.interface';

function failed(err: unknown): never {
  if (err instanceof GsettingsError) throw httpError(DevtoolsErrors.GSETTINGS_FAILED, err.message);
  throw err;
}

export function registerGnomeRoutes(http: HttpRoutes, gsettings: Gsettings): void {
  const unavailable = async (): Promise<{ reason: string | null; schemas: Set<string> }> => {
    const schemas = await gsettings.schemas().catch(failed);
    if (!schemas) return { reason: 'gsettings is not installed (Debian: libglib2.0-bin), so GNOME settings cannot be read here.', schemas: new Set() };
    if (!schemas.has(DESKTOP_SCHEMA)) return { reason: 'The GNOME desktop schemas are not installed (Debian: gsettings-desktop-schemas): this machine has no GNOME to tweak.', schemas };
    return { reason: null, schemas };
  };
  const read = async (k: GnomeKey, schemas: Set<string>) => {
    const base = { id: k.id, schema: k.schema, key: k.key, label: k.label, hint: k.hint, choices: [] as string[], min: null, max: null, integer: false };
    if (!schemas.has(k.schema)) return { ...base, available: false, writable: false, kind: 'missing' as const, value: null };
    const [rangeText, valueText, writable] = await Promise.all([gsettings.range(k), gsettings.get(k), gsettings.writable(k)]).catch(failed);
    const range = parseRange(rangeText);
    return {
      ...base, available: true, writable: writable && range.kind !== 'other', kind: range.kind, value: readValue(range, valueText),
      ...(range.kind === 'enum' ? { choices: range.choices } : {}),
      ...(range.kind === 'number' ? { min: range.min, max: range.max, integer: range.integer } : {}),
    };
  };
  const answer = async () => {
    const { reason, schemas } = await unavailable();
    const backend = process.env.GSETTINGS_BACKEND || null;
    if (reason) return { available: false, reason, backend, settings: [] };
    const settings = [];
    // One key at a time: three short gsettings calls each, nine keys; never a burst of 27 processes.
    for (const k of GNOME_KEYS) settings.push(await read(k, schemas));
    return { available: true, reason: null, backend, settings };
  };

  http.route({
    method: 'GET', path: '/api/gnome', tags: ['host'],
    summary: 'GNOME tweaks: the offered settings with their values and ranges, read with gsettings; or why there are none here',
    response: gnomeSettings,
    handler: answer,
  });

  http.route({
    method: 'POST', path: '/api/gnome', role: 'owner', tags: ['host'],
    summary: 'Changes one GNOME setting with `gsettings set`, after checking the value against `gsettings range`',
    body: closedObject({ id: { type: 'string', maxLength: 64 }, value }),
    response: gnomeSettings,
    async handler(ctx) {
      const body = ctx.request.body as { id: string; value: unknown };
      const { reason, schemas } = await unavailable();
      if (reason) throw httpError(DevtoolsErrors.GNOME_UNAVAILABLE, reason);
      const k = gnomeKey(body.id);
      if (!k || !schemas.has(k.schema)) throw httpError(DevtoolsErrors.GNOME_KEY_UNKNOWN, `${JSON.stringify(body.id)} is not a GNOME setting offered here${k ? ` (schema ${k.schema} is not installed)` : ''}`);
      const encoded = encodeValue(parseRange(await gsettings.range(k).catch(failed)), body.value);
      if ('problem' in encoded) throw httpError(DevtoolsErrors.GNOME_VALUE, `${k.schema} ${k.key} ${encoded.problem}`);
      ctx.state.audit_detail = `gsettings set ${k.schema} ${k.key} ${encoded.text}`;
      await gsettings.set(k, encoded.text).catch(failed);
      return answer();
    },
  });
}
