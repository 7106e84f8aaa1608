// How deep a parsed JSON body nests. The mock's handlers (merge patch, fitting items into responses, JSON.stringify)
// recurse, so a body 100,000 arrays deep would overflow the stack after being stored, and poison every later read of
// its collection. Checked once after parsing, without recursion.

/** Containers (objects and arrays) one inside another that a request body may hold, the outermost counted. */
export const MAX_BODY_DEPTH = 128;

/** Whether `value` nests more than `max` containers deep (a scalar is depth 0, `{}` 1, `{"a":[]}` 2). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
