// generateSdk: an OpenAPI document in, the files of a typed client out. `vigil sdk --spec FILE` calls it with a
// document read from a file; the same call takes the document that `vigil spec` infers from traffic.
import type { OpenApiDocument } from '../openapi/document.js';
import { buildModel, type ApiModel } from './model.js';
import { snakeCase, typeNameOf, words } from './names.js';
import { TS_RESERVED_TYPES, emitTypeScript } from './emit-typescript.js';
import { PY_KEYWORDS, PY_RESERVED_TYPES, emitPython } from './emit-python.js';
import { GO_KEYWORDS, emitGo } from './emit-go.js';

export const SDK_LANGUAGES = ['ts', 'python', 'go'] as const;
export type SdkLanguage = (typeof SDK_LANGUAGES)[number];

export interface SdkOptions {
  /** The client's class (struct) name; default from the document's title (`Users API` → UsersApiClient; Go: Client). */
  clientName?: string;
  /** The module or package: the TypeScript file name, the Python module name, the Go package name. */
  packageName?: string;
}

export interface GeneratedFile {
  /** Relative to the output directory. */
  path: string;
  content: string;
}

/** The names an emitter writes: the client type, the file (without extension) and the Go package. */
export interface SdkNames {
  client: string;
  file: string;
  package: string;
}

export interface GeneratedSdk {
  files: GeneratedFile[];
  operations: number;
  types: number;
  skipped: ApiModel['skipped'];
}

/** A --name or --package that the language cannot use; the message says why. */
export class SdkOptionError extends Error {}

function namesFor(doc: OpenApiDocument, lang: SdkLanguage, options: SdkOptions): SdkNames {
  const titleWords = words(doc.info.title);
  let client = options.clientName;
  if (client === undefined) {
    const base = typeNameOf(doc.info.title, 'Api');
    client = lang === 'go' ? 'Client' : titleWords.at(-1) === 'client' ? base : `${base}Client`;
  } else if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(client)) {
    throw new SdkOptionError(`--name must be an identifier (a letter, then letters, digits or _), got "${client}"`);
  }
  let pkg = options.packageName;
  if (pkg === undefined) {
    const joined = lang === 'go' ? titleWords.join('') : lang === 'python' ? snakeCase(titleWords) : titleWords.join('-');
    pkg = /^[a-z]/.test(joined) ? joined : 'api';
    if ((lang === 'go' && GO_KEYWORDS.includes(pkg)) || (lang === 'python' && PY_KEYWORDS.includes(pkg))) pkg = `${pkg}api`;
  } else if (lang === 'go' && (!/^[a-z][a-z0-9_]*$/.test(pkg) || GO_KEYWORDS.includes(pkg))) {
    throw new SdkOptionError(`--package must be a Go package name (lower case letters, digits, _; not a keyword), got "${pkg}"`);
  } else if (lang === 'python' && (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(pkg) || PY_KEYWORDS.includes(pkg))) {
    throw new SdkOptionError(`--package must be a Python module name (an identifier, not a keyword), got "${pkg}"`);
  } else if (lang === 'ts' && !/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(pkg)) {
    throw new SdkOptionError(`--package must be a file name (letters, digits, _, ., -), got "${pkg}"`);
  }
  return { client, file: lang === 'go' ? pkg : pkg, package: pkg };
}

export function generateSdk(doc: OpenApiDocument, lang: SdkLanguage, options: SdkOptions = {}): GeneratedSdk {
  const names = namesFor(doc, lang, options);
  // Type names are shared by the three languages, so none may shadow what any of them uses.
  const reserved = [
    names.client, `${names.client}Options`, `New${names.client}`, 'ApiError', 'APIError',
    ...TS_RESERVED_TYPES, ...PY_RESERVED_TYPES,
  ];
  const model = buildModel(doc, reserved);
  const files = lang === 'ts' ? emitTypeScript(model, names) : lang === 'python' ? emitPython(model, names) : emitGo(model, names);
  return { files, operations: model.operations.length, types: model.types.length, skipped: model.skipped };
}
