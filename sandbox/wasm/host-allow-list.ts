/**
 * Whether `hostname` is on the allow-list. Entries are exact host names, or patterns where `*` stands for one or
 * more characters other than a dot (`*.example.com` matches `api.example.com`, not `example.com` nor `a.b.example.com`).
 */
export function hostAllowed(hostname: string, allowList: readonly string[]): boolean {
  const host = hostname.toLowerCase();
  for (const entry of allowList) {
    const pattern = entry.toLowerCase();
    if (pattern === host) return true;
    if (!pattern.includes('*')) continue;
    const source = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^.]+');
    if (new RegExp(`^${source}$`).test(host)) return true;
  }
  return false;
}
