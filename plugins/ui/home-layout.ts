// The home screen's widget layout (perch's home.json), kept in the store so it follows the installation to any
// browser: which widgets show in what order, which were removed, and their sizes. One layout per installation:
// the dashboard has no user accounts (one token, any number of sessions).
import type { JsonSchema, Store } from '@vigil/plugin-sdk';

/** Widths are grid columns (1-6) or the whole row; heights are rows (1-6). */
export interface WidgetSize { w: number | 'full'; h: number }

export interface HomeLayout {
  /** Widget ids in grid order; ids of widgets this installation does not offer are kept for another install. */
  order: string[];
  /** Widgets the user removed: not put back when the defaults grow. */
  hidden: string[];
  sizes: Record<string, WidgetSize>;
}

/** At most this many ids per list (perch's bound), so a layout is a few KB whatever is posted. */
export const MAX_LAYOUT_ENTRIES = 120;
export const WIDGET_ID_PATTERN = '^[A-Za-z0-9_-]{1,40}$';
export const GRID_COLUMNS = 6;
export const GRID_ROWS = 6;

const widgetId: JsonSchema = { type: 'string', pattern: WIDGET_ID_PATTERN, description: 'A widget id: letters, digits, _ or -, at most 40.' };
const idList = (description: string): JsonSchema =>
  ({ type: 'array', items: widgetId, maxItems: MAX_LAYOUT_ENTRIES, uniqueItems: true, description });

export const widgetSizeSchema: JsonSchema = {
  title: 'WidgetSize',
  type: 'object',
  additionalProperties: false,
  required: ['w', 'h'],
  properties: {
    w: { oneOf: [{ type: 'integer', minimum: 1, maximum: GRID_COLUMNS }, { const: 'full' }], description: 'Grid columns, 1-6, or "full" for the whole row.' },
    h: { type: 'integer', minimum: 1, maximum: GRID_ROWS, description: 'Grid rows, 1-6.' },
  },
};

export const homeLayoutSchema: JsonSchema = {
  title: 'HomeLayout',
  description: 'The home grid: widget order, removed widgets and sizes (at most 120 of each).',
  type: 'object',
  additionalProperties: false,
  required: ['order', 'hidden', 'sizes'],
  properties: {
    order: idList('Widget ids in grid order.'),
    hidden: idList('Widgets removed from the grid; the gallery offers them again.'),
    sizes: {
      type: 'object',
      maxProperties: MAX_LAYOUT_ENTRIES,
      propertyNames: { pattern: WIDGET_ID_PATTERN },
      additionalProperties: widgetSizeSchema,
      description: 'Size by widget id; a widget without one has its default size.',
    },
  },
};

/** `{ layout }`: null is the default layout (never saved, or reset). */
export const storedLayoutSchema: JsonSchema = {
  title: 'StoredHomeLayout',
  type: 'object',
  additionalProperties: false,
  required: ['layout'],
  properties: { layout: { oneOf: [{ type: 'null' }, homeLayoutSchema], description: 'null: the default layout.' } },
};

/**
 * The POST body: the same shape, with `layout` as one schema of type object-or-null rather than a oneOf, so a bad
 * layout's error names the key at fault instead of "must be null".
 */
const { title: _title, ...untitledLayout } = homeLayoutSchema;
export const layoutBodySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['layout'],
  properties: { layout: { ...untitledLayout, type: ['object', 'null'], description: 'null: the default layout.' } },
};

/** A JSON body of at most 120 × 3 entries of about 60 bytes, with room for whitespace. */
export const LAYOUT_BODY_LIMIT = 64 * 1024;

const OWNER = 'installation';

export class HomeLayoutStore {
  private readonly table: string;

  constructor(private readonly store: Store) {
    this.table = store.table('home_layouts');
  }

  /** The saved layout, or null; a row that no longer parses (edited by hand) reads as the default. */
  async read(): Promise<HomeLayout | null> {
    const rows = await this.store.query<{ layout: string }>(`SELECT layout FROM ${this.table} WHERE owner = ?`, [OWNER]);
    if (!rows.length) return null;
    try {
      return JSON.parse(rows[0].layout) as HomeLayout;
    } catch {
      return null;
    }
  }

  /** Saves `layout` (already validated against homeLayoutSchema); null deletes it, so the default shows. */
  async write(layout: HomeLayout | null): Promise<void> {
    if (layout === null) {
      await this.store.run(`DELETE FROM ${this.table} WHERE owner = ?`, [OWNER]);
      return;
    }
    await this.store.run(
      `INSERT INTO ${this.table} (owner, layout, updated_at) VALUES (?, ?, ?) ON CONFLICT (owner) DO UPDATE SET layout = excluded.layout, updated_at = excluded.updated_at`,
      [OWNER, JSON.stringify(layout), Date.now()]);
  }
}
