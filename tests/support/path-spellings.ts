// Spellings of two protected paths that some common upstream framework routes to the same handler, by family
// (policies/README.md, "Paths"). Each is a request-target as it goes on the wire: printable ASCII, since Node's
// HTTP parser refuses anything else. Shared by the fold's unit tests, the compile tests and the gateway test.

export type SpellingFamily =
  | 'case' | 'backslash' | 'path parameters' | 'percent-encoding' | 'dot segments' | 'trailing dots and whitespace'
  | 'NUL' | 'fullwidth (NFKC)' | 'overlong UTF-8' | 'absolute form';

/** Every spelling folds to exactly `path`. */
export interface Spellings {
  path: string;
  families: Record<SpellingFamily, string[]>;
}

export const adminUsers: Spellings = {
  path: '/admin/users',
  families: {
    // Dotless ı and dotted İ: Java's equalsIgnoreCase takes them for i.
    'case': ['/ADMIN/users', '/Admin/Users', '/aDmIn/USERS', '/adm%C4%B1n/users', '/ADM%C4%B0N/users'],
    'backslash': ['/admin\\users', '\\admin\\users', '/x\\..\\admin/users', '/admin%5Cusers', '/admin%5cusers'],
    'path parameters': ['/admin;x/users', '/..;/admin/users', '/admin;/users', '/admin/users;jsessionid=1', '/admin;a=1;b=2/users',
      '/admin%3Bx/users', '/admin/x/..;/users'],
    'percent-encoding': ['/%61dmin/users', '/%2561dmin/users', '/%252561dmin/users', '/admin%2Fusers', '/admin%252Fusers',
      '/%41DMIN/users', '/admin%u002fusers', '/%u0061dmin/users', '/%2541DMIN%252fUSERS'],
    'dot segments': ['/x/../admin/users', '/./admin/./users', '/admin/x/../users', '/../admin/users', '/x/%2e%2e/admin/users',
      '/x/%252e%252e/admin/users', '/x/.%2E/admin/users', '/admin/users/', '//admin//users', '/admin/users/.',
      '/admin/users%2F..%2Fusers'],
    'trailing dots and whitespace': ['/admin./users', '/admin../users', '/admin%20/users', '/admin%20./users', '/admin%09/users',
      '/%20admin/users', '/admin/users.', '/admin%2e/users', '/admin%0d%0a/users', '/admin%C2%A0/users', '/admin%E3%80%80/users',
      '/admin%E2%80%8B/users', '/admin%E2%80%A8./users'],
    'NUL': ['/admin%00/users', '/admin%00x/users', '/admin/users%00.json', '/admin%2500/users'],
    'fullwidth (NFKC)': ['/%EF%BD%81dmin/users', '/admin%EF%BC%8Fusers', '/x/%EF%BC%8E%EF%BC%8E/admin/users',
      '/%EF%BC%A1%EF%BC%A4%EF%BC%AD%EF%BC%A9%EF%BC%AE/users', '/admin%EF%BC%9Bx/users', '/admin%EF%BC%BCusers'],
    'overlong UTF-8': ['/admin%C0%AFusers', '/x/%C0%AE%C0%AE/admin/users', '/x/%E0%80%AE%E0%80%AE/admin/users',
      '/%C1%A1dmin/users', '/admin%C1%9Cusers', '/admin%E0%80%AFusers'],
    'absolute form': ['http://api.example/ADMIN/users', 'HTTP://api.example\\admin\\users', 'https://h:8443/admin;x/users?q=1'],
  },
};

export const paymentsCharge: Spellings = {
  path: '/api/payments/charge',
  families: {
    'case': ['/API/payments/charge', '/api/PAYMENTS/Charge'],
    'backslash': ['/api\\payments\\charge', '/api/x\\..\\payments/charge', '/api%5Cpayments/charge'],
    'path parameters': ['/api/payments;jsessionid=1/charge', '/api;x/payments/charge', '/api/payments/charge;jsessionid=1',
      '/api/x/..;/payments/charge', '/api/payments%3bv=2/charge'],
    'percent-encoding': ['/api%2Fpayments%2Fcharge', '/api/%70ayments/charge', '/api/%2570ayments/charge', '/api/payments%252Fcharge'],
    'dot segments': ['/api/x/../payments/charge', '/api/payments/./charge', '/api/%2E%2E/api/payments/charge'],
    'trailing dots and whitespace': ['/api/payments./charge', '/api/payments%20/charge', '/api/payments/charge%20%2e'],
    'NUL': ['/api/payments%00/charge', '/api/payments/charge%00'],
    'fullwidth (NFKC)': ['/api/%EF%BD%90ayments/charge', '/api%EF%BC%8Fpayments/charge'],
    'overlong UTF-8': ['/api/payments%C0%AFcharge', '/api/x/%C0%AE%C0%AE/payments/charge'],
    'absolute form': ['http://h/API/payments/charge'],
  },
};

/** Spellings that only a router reading reaches: WHATWG `new URL(target, base)` takes a leading `//host` as the host. */
export const authorityTricks: Spellings = {
  path: '/admin/users',
  families: {
    'case': [], 'path parameters': [], 'percent-encoding': [], 'dot segments': [], 'trailing dots and whitespace': [],
    'NUL': [], 'fullwidth (NFKC)': [], 'overlong UTF-8': [], 'absolute form': [],
    'backslash': ['//evil/admin/users', '/\\evil/admin/users', '\\\\evil\\admin\\users', '///evil/x/../admin/users'],
  },
};

/**
 * Spellings whose decoded text holds a character that ends a path for whoever parses it again: a proxy that decodes
 * and forwards the bytes (nginx's `proxy_pass …$uri`) hands its upstream a `?` or `#` that starts the query or the
 * fragment, a NUL that ends a C string, or a space or line break that ends the request line. What comes before it
 * is the path that upstream routes.
 */
export const terminatorTricks: Spellings = {
  path: '/api/payments/charge',
  families: {
    'case': [], 'backslash': [], 'path parameters': [], 'dot segments': [], 'absolute form': [],
    'percent-encoding': ['/api/payments/charge%3fx=1', '/api/payments/charge%3F/../x', '/api/payments/charge%253f/../x',
      '/api/payments/charge%23/../x', '/api/payments/charge%2523x', '/api/payments/charge%u003f/x'],
    'NUL': ['/api/payments/charge%00/x', '/api/payments/charge%00/../x', '/api/payments/charge%2500/x', '/api/payments/charge%u0000/x'],
    'trailing dots and whitespace': ['/api/payments/charge%0d%0aX:%20y', '/api/payments/charge%20HTTP/1.1%0d%0aX:%20/../x',
      '/api/payments/charge%0a/x', '/api/payments/charge%09/x'],
    'fullwidth (NFKC)': ['/api/payments/charge%EF%BC%9F/x', '/api/payments/charge%EF%BC%83/x'],
    'overlong UTF-8': ['/api/payments/charge%C0%BF/x', '/api/payments/charge%C0%80/x', '/api/payments/charge%E0%80%A3/x'],
  },
};

/** Every (family, spelling) pair of a table. */
export function eachSpelling(s: Spellings): [SpellingFamily, string][] {
  return (Object.entries(s.families) as [SpellingFamily, string[]][]).flatMap(([family, list]) => list.map((t) => [family, t] as [SpellingFamily, string]));
}
