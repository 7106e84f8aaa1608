// Type-level: the Node client's TraceItem (clients/node/src/trace-item.ts) is exactly the type the server's item
// schema defines (trace-item.gen.ts, written by trace-item-contract.test.ts). `npm test` typechecks this file: a field
// added, removed, renamed, made required or retyped on one side only fails the build.
import type { TraceItem } from '../../../clients/node/src/trace-item.js';
import type { SchemaTraceItem } from './trace-item.gen.js';

/** True when A and B are the same type, optional and readonly modifiers included. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
/** Object types as a plain mapped type, so an interface and a type alias of the same members compare equal. */
type Plain<T> = T extends object ? (T extends unknown[] ? T : { [K in keyof T]: Plain<T[K]> }) : T;

export const clientItemIsTheServersItem: Equal<Plain<TraceItem>, Plain<SchemaTraceItem>> = true;
