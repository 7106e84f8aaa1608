// Identifiers for generated code. A name in an OpenAPI document (an operationId, a schema name, a property such as
// `content-type`, `class` or `2fa`) becomes words first, then each language's casing; a scope hands out names that
// never collide, with each other or with the words a language reserves.

/** The lower-case words of a name: `getUserById`, `user_id`, `content-type`, `HTTPServer2` → words. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

const capital = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

export const pascalCase = (ws: string[]): string => ws.map(capital).join('');
export const camelCase = (ws: string[]): string => ws.map((w, i) => (i === 0 ? w : capital(w))).join('');
export const snakeCase = (ws: string[]): string => ws.join('_');

/**
 * Hands out unique names: the first claim of a base gets it, later ones get `base2`, `base3`…; reserved words are
 * never handed out. `fix` turns a base that is not an identifier of the language (empty, starting with a digit, a
 * keyword) into one before it is claimed.
 */
export class NameScope {
  private readonly taken: Set<string>;

  constructor(reserved: Iterable<string>, private readonly fix: (name: string) => string = (n) => n) {
    this.taken = new Set(reserved);
  }

  claim(base: string): string {
    const name = this.fix(base);
    if (!this.taken.has(name)) {
      this.taken.add(name);
      return name;
    }
    for (let n = 2; ; n++) {
      const candidate = `${name}${n}`;
      if (!this.taken.has(candidate)) {
        this.taken.add(candidate);
        return candidate;
      }
    }
  }

  /** Marks a name as used without claiming a variant of it. */
  reserve(name: string): void {
    this.taken.add(name);
  }

  /** A scope that starts with this one's names: method parameters inside a client's scope, fields inside a type. */
  child(): NameScope {
    return new NameScope(this.taken, this.fix);
  }
}

/** A name for a type: PascalCase, starting with a letter (`2fa` → `T2fa`), never empty. */
export function typeNameOf(text: string, fallback: string): string {
  const name = pascalCase(words(text));
  if (!name) return fallback;
  return /^[0-9]/.test(name) ? `T${name}` : name;
}

/** Text that is safe inside a block comment of any of the three languages (a star then a slash would close it). */
export function commentText(text: string): string {
  return text.replace(/\*\//g, '* /').replace(/\r\n?/g, '\n').trim();
}
