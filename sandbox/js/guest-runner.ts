/**
 * The script that prepares each fresh context before a user's module runs in it. It evaluates to `run`, the
 * function the host applies for each call. It lives inside the isolate, so nothing here is trusted by the host:
 * the child validates the shape of every tuple `run` returns and parses the JSON itself.
 *
 * `run(namespace, inputJson, maxChars, checkOnly)` returns one of these tuples, or a promise of one:
 *   ['v', json, logs]           the function's result as JSON text
 *   ['x', {name, message, stack}, logs]   the function threw or its promise rejected
 *   ['o', message, logs]        the result is not JSON, or its JSON has more than maxChars characters
 *   ['n', message, logs]        the module has no default export function
 *
 * Guest code can patch any global, including the ones this script uses, but only after this script has captured
 * what it needs; a guest that tampers anyway can only spoil its own result.
 */
export const guestRunnerFilename = 'vigil-sandbox:runner';

export const guestRunnerSource = String.raw`
(function () {
  'use strict';
  const g = globalThis;
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const toText = String;
  const apply = Reflect.apply;
  const slice = String.prototype.slice;
  // WebAssembly memory is allocated outside the isolate's heap and escapes its memory limit.
  delete g.WebAssembly;
  // Work that outlives the call belongs to the isolate, not to this context, so it would run during a later call:
  // finalizer callbacks (FinalizationRegistry; WeakRef is its half that observes collection) and Atomics waiters
  // (Atomics, and SharedArrayBuffer, which every waiter needs). Removed before user code runs, they cannot be reached
  // again: no other intrinsic leads to them (WebAssembly.Memory, the other maker of shared memory, is gone above).
  delete g.FinalizationRegistry;
  delete g.WeakRef;
  delete g.Atomics;
  delete g.SharedArrayBuffer;

  // The symbol registry is the isolate's too and never shrinks: a registry of this call's own keeps one call's
  // Symbol.for keys out of the next call's memory.
  const makeSymbol = Symbol;
  const mapGet = Map.prototype.get;
  const mapSet = Map.prototype.set;
  const symbolsByKey = new Map();
  const keysBySymbol = new Map();
  const registry = {
    for(key) {
      if (typeof key === 'symbol') throw new TypeError('Cannot convert a Symbol value to a string');
      const text = toText(key);
      let symbol = apply(mapGet, symbolsByKey, [text]);
      if (symbol === undefined) {
        symbol = makeSymbol(text);
        apply(mapSet, symbolsByKey, [text, symbol]);
        apply(mapSet, keysBySymbol, [symbol, text]);
      }
      return symbol;
    },
    keyFor(symbol) {
      if (typeof symbol !== 'symbol') throw new TypeError(toText(symbol) + ' is not a symbol');
      return apply(mapGet, keysBySymbol, [symbol]);
    },
  };
  g.Symbol.for = registry.for;
  g.Symbol.keyFor = registry.keyFor;

  const maxLogLines = 200;
  const maxLogLineChars = 2000;
  const maxLogChars = 32768;
  const logs = [];
  let logChars = 0;
  let droppedLines = 0;

  function cut(text, max) {
    return text.length > max ? apply(slice, text, [0, max]) + '…' : text;
  }
  function show(value) {
    if (typeof value === 'string') return value;
    try {
      const json = stringify(value);
      if (typeof json === 'string') return json;
    } catch (e) {}
    try { return toText(value); } catch (e) { return '[unprintable]'; }
  }
  function logger(prefix) {
    return function () {
      if (logs.length >= maxLogLines || logChars >= maxLogChars) { droppedLines++; return; }
      let line = prefix;
      for (let i = 0; i < arguments.length; i++) line += (i === 0 ? '' : ' ') + show(arguments[i]);
      line = cut(line, maxLogLineChars);
      logs[logs.length] = line;
      logChars += line.length;
    };
  }
  g.console = {
    log: logger(''), info: logger(''), debug: logger(''), warn: logger('warn: '), error: logger('error: '),
  };
  function takeLogs() {
    if (droppedLines > 0) logs[logs.length] = '(' + droppedLines + ' more log lines dropped)';
    droppedLines = 0;
    return logs;
  }

  // Each property is read on its own: a getter or a poisoned Error.prepareStackTrace may throw on any of them.
  function read(object, key) {
    try { return object[key]; } catch (e) { return undefined; }
  }
  function describe(thrown) {
    if (thrown !== null && (typeof thrown === 'object' || typeof thrown === 'function')) {
      const name = read(thrown, 'name');
      const message = read(thrown, 'message');
      const stack = read(thrown, 'stack');
      return {
        name: typeof name === 'string' ? cut(name, 200) : '',
        message: cut(typeof message === 'string' ? message : show(thrown), 4000),
        stack: typeof stack === 'string' ? cut(stack, 8000) : '',
      };
    }
    return { name: '', message: cut(show(thrown), 4000), stack: '' };
  }

  function replacer(key, value) {
    const type = typeof value;
    if (type === 'function' || type === 'symbol') {
      throw new TypeError('the result holds a ' + type + (key === '' ? '' : ' at key "' + cut(toText(key), 100) + '"') + ', which JSON cannot carry');
    }
    return value;
  }

  function encode(value, maxChars) {
    let json;
    try {
      json = stringify(value, replacer);
    } catch (e) {
      return ['o', 'the result is not JSON: ' + describe(e).message, takeLogs()];
    }
    if (typeof json !== 'string') return ['o', 'the function returned undefined, which is not JSON', takeLogs()];
    if (json.length > maxChars) {
      return ['o', 'the result is ' + json.length + ' characters of JSON, over the limit of ' + maxChars + ' bytes', takeLogs()];
    }
    return ['v', json, takeLogs()];
  }

  async function settle(promise, maxChars) {
    let value;
    try { value = await promise; } catch (e) { return ['x', describe(e), takeLogs()]; }
    return encode(value, maxChars);
  }

  return function run(namespace, input, maxChars, checkOnly) {
    let fn;
    try {
      fn = namespace.default;
    } catch (e) {
      // The default export is still in its temporal dead zone: a top-level await has not settled.
      return ['n', 'the default export is not initialised: a top-level await in the module did not settle while it loaded', takeLogs()];
    }
    if (typeof fn !== 'function') {
      return ['n', 'the module must export a function as default (export default function (input) { … }), found ' + (fn === null ? 'null' : typeof fn), takeLogs()];
    }
    if (checkOnly) return ['v', 'null', takeLogs()];
    let result;
    try {
      result = fn(input === undefined ? undefined : parse(input));
      if (result !== null && (typeof result === 'object' || typeof result === 'function') && typeof result.then === 'function') {
        return settle(result, maxChars);
      }
    } catch (e) {
      return ['x', describe(e), takeLogs()];
    }
    return encode(result, maxChars);
  };
})()
`;
