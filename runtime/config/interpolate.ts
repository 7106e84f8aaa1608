/** Environment variables as the loader sees them (process.env, or a plain object in tests). */
export type Env = Readonly<Record<string, string | undefined>>;

export interface Interpolated {
  text: string;
  /** Variables referenced without a default that are unset, in order of appearance, each once. */
  missing: string[];
  /** Set when a `${` is not a well-formed reference; `text` is then meaningless. */
  malformed?: string;
}

const reference = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$\{/g;
const wholeReference = /^\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}$/;

/**
 * Expands `${VAR}` and `${VAR:-default}` in one string. The default applies when VAR is unset or empty (as in
 * POSIX shells). `$${` is a literal `${`. Defaults are taken literally: they are not expanded again.
 */
export function interpolateString(input: string, env: Env): Interpolated {
  const missing: string[] = [];
  let malformed: string | undefined;
  const text = input.replace(reference, (match: string, name: string | undefined, fallback: string | undefined) => {
    if (match === '$${') return '${';
    if (name === undefined) {
      malformed ??= 'a malformed reference: write ${NAME} or ${NAME:-default} (NAME: letters, digits, _), or $${ for a literal ${';
      return match;
    }
    const value = env[name];
    if (fallback !== undefined) return value === undefined || value === '' ? fallback : value;
    if (value === undefined) {
      if (!missing.includes(name)) missing.push(name);
      return '';
    }
    return value;
  });
  return malformed === undefined ? { text, missing } : { text, missing, malformed };
}

/** True when the whole string is one `${…}` reference: such a plain YAML scalar keeps the type of its value. */
export function isWholeReference(input: string): boolean {
  return wholeReference.test(input);
}

/** True when the string contains something interpolation would change. */
export function hasReference(input: string): boolean {
  return input.includes('${');
}
