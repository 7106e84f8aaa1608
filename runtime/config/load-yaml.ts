import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isMap, LineCounter, parseDocument, type Document, type YAMLError } from 'yaml';
import { ConfigErrors, ConfigError, type ConfigProblem } from './errors.js';
import type { Env } from './interpolate.js';
import type { LoadedConfig } from './loaded-config.js';
import { createLocator } from './locate.js';
import { resolveDocument } from './resolve-document.js';

/**
 * Reads, parses and interpolates one YAML config file. Throws a ConfigError listing every problem: unreadable file,
 * YAML syntax, duplicate keys, an empty file, a top level that is not a mapping, unset variables.
 * Schema validation is separate (validateSection), so plugins' sections can be checked once they are resolved.
 */
export function loadConfigFile(file: string, env: Env = process.env): LoadedConfig {
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file'
      : (err as NodeJS.ErrnoException).code === 'EISDIR' ? 'it is a directory' : (err as Error).message;
    throw new ConfigError([{
      code: ConfigErrors.READ, file: path, line: 0, column: 0, keyPath: '',
      message: `cannot read the config file: ${reason}`,
    }], { cause: err });
  }
  return loadConfigText(text, path, env);
}

/** loadConfigFile for text already in memory; `file` names it in problems and sets `dir`. */
export function loadConfigText(text: string, file: string, env: Env = process.env): LoadedConfig {
  const lines = new LineCounter();
  // uniqueKeys off: duplicates are reported by resolveDocument, which knows their key path and first occurrence.
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false, merge: true });
  const locate = createLocator(doc, lines);

  if (doc.errors.length > 0) throw new ConfigError(firstPerLine(doc.errors.map((e) => syntaxProblem(e, text, lines, file))));
  if (doc.contents === null) {
    throw new ConfigError([{
      code: ConfigErrors.EMPTY, file, line: 1, column: 1, keyPath: '',
      message: 'the config file is empty: it must be a mapping of config keys, e.g. "control_plane: { listen: 9095 }"',
    }]);
  }
  const problems: ConfigProblem[] = [];
  if (!isMap(doc.contents)) {
    const { line, column } = locate([]) ?? { line: 1, column: 1 };
    problems.push({
      code: ConfigErrors.TYPE, file, line, column, keyPath: '',
      message: `the top level must be a mapping of config keys, got ${describeNode(doc)}`,
    });
  } else {
    problems.push(...resolveDocument(doc, lines, file, env));
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const data = doc.toJS({ maxAliasCount: 1000 }) as Record<string, unknown>;
  return { file, dir: dirname(resolve(file)), data, locate };
}

function describeNode(doc: Document): string {
  const value: unknown = doc.toJS();
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return `a ${typeof value}`;
}

/** One syntax error usually sets off more on the same line; the first one is the one to fix. */
function firstPerLine(problems: ConfigProblem[]): ConfigProblem[] {
  const lines = new Set<number>();
  return problems.filter((p) => !lines.has(p.line) && lines.add(p.line));
}

function syntaxProblem(error: YAMLError, text: string, lines: LineCounter, file: string): ConfigProblem {
  const { line, col } = lines.linePos(error.pos[0]);
  let message = `YAML syntax error: ${error.message.replace(/\s+/g, ' ').trim()}`;
  if (error.code === 'MULTIPLE_DOCS') message = 'YAML syntax error: the file holds several documents (---); a config file is one document';
  // The most common way to break YAML here: a ${…} reference inside { … } or [ … ], where braces are syntax.
  const sourceLine = text.split('\n')[line - 1] ?? '';
  const reference = sourceLine.indexOf('${');
  if (reference > 0 && /[[{]/.test(sourceLine.slice(0, reference))) {
    message += '; a ${…} inside { … } or [ … ] must be quoted, or write that collection in block style';
  }
  return { code: ConfigErrors.YAML, file, line, column: col, keyPath: '', message };
}
