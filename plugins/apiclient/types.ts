// The API client's model: what a collection, an environment and a flow hold. Shared by the routes, the store, the
// importers (run in a worker) and the exporters; plain data, so it crosses a thread as it is.

/** A header or a form field; `enabled: false` keeps it in the editor without sending it. */
export interface KeyValue { name: string; value: string; enabled?: boolean }

export type AuthKind = 'none' | 'bearer' | 'basic';
export interface RequestAuth { type: AuthKind; token?: string; username?: string; password?: string }

/**
 * One request as the editor holds it. Values may carry `{{variable}}` placeholders, filled in at send time from the
 * environment (secret variables on the server only). The query string lives in `url`: the editor's Params tab edits it.
 */
export interface ApiRequest {
  id: string;
  name: string;
  /** Where it sits in the tree, e.g. "Users / Admin" (Postman and Insomnia folders, OpenAPI tags); "" at the top. */
  folder: string;
  method: string;
  url: string;
  headers: KeyValue[];
  body: string;
  auth: RequestAuth;
}

export interface Collection { id: string; name: string; requests: ApiRequest[] }

/** A secret variable's value is sealed in the store and never sent to the browser: it arrives as `value: ""`, `set`. */
export interface EnvVariable { name: string; value: string; secret: boolean; set?: boolean }
export interface Environment { id: string; name: string; variables: EnvVariable[] }

/** A value taken from a step's response into a variable the next steps use. */
export interface Extraction {
  variable: string;
  from: 'json' | 'header' | 'status';
  /** json: a path such as `$.data.token` or `items[0].id`; header: the header's name; status: unused. */
  path: string;
}
export interface FlowStep { request: ApiRequest; extract: Extraction[] }
export interface Flow { id: string; name: string; steps: FlowStep[] }

/** What an importer makes of a file: one collection, and the variables it declares (an environment to add). */
export interface Imported { format: ImportFormat; collection: Collection; variables: EnvVariable[] }
export type ImportFormat = 'postman' | 'insomnia' | 'openapi' | 'curl';

/** Bounds of what is kept: the store's answers and the import's output are capped by them. */
export const LIMITS = {
  collections: 64,
  requests: 500,
  environments: 32,
  variables: 200,
  flows: 64,
  steps: 20,
  history: 50,
  headers: 100,
  /** Characters of a request body as saved or sent from the editor. */
  body_chars: 1024 * 1024,
  /** Bytes of a file to import (a collection, an OpenAPI document, curl lines). */
  import_bytes: 4 * 1024 * 1024,
} as const;

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

let counter = 0;
/** Ids for imported items: unique within one import, short, no clock or randomness needed in the worker. */
export const localId = (prefix: string): string => `${prefix}${(++counter).toString(36)}${Math.random().toString(36).slice(2, 8)}`;

export const emptyRequest = (over: Partial<ApiRequest> = {}): ApiRequest => ({
  id: localId('r'), name: '', folder: '', method: 'GET', url: '', headers: [], body: '', auth: { type: 'none' }, ...over,
});
