import { LOGIN_FORM_PATH, OIDC_LOGIN_PATH } from './login-paths.js';

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface LoginPageOptions {
  /** The path to open after logging in (already checked by `sameSiteTarget`). */
  next: string;
  stylesheet: string | undefined;
  problem?: string;
  /** With single sign-on configured: the provider's name, for "Sign in with <name>". */
  provider?: string;
  /** Whether local users can log in here (the runtime has a store). */
  localUsers: boolean;
}

const head = (title: string, stylesheet: string | undefined, extra = ''): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${extra}<title>${escapeHtml(title)} · Vigil</title>
${stylesheet ? `<link rel="stylesheet" href="${escapeHtml(stylesheet)}">\n` : ''}</head>`;

/**
 * The login form, plain server-rendered HTML that works without script: single sign-on when configured, a local
 * user's email and password when the runtime keeps users, and always the dashboard token (the break-glass owner
 * login). The classes are the hooks of the stylesheet a plugin may give (the web UI's `login.css`).
 */
export function loginPage(o: LoginPageOptions): Buffer {
  const next = escapeHtml(o.next);
  const sso = o.provider
    ? `<a class="login-sso" href="${OIDC_LOGIN_PATH}?next=${escapeHtml(encodeURIComponent(o.next))}">Sign in with ${escapeHtml(o.provider)}</a>\n<p class="login-or"><span>or</span></p>\n`
    : '';
  const local = o.localUsers
    ? `<form method="post" action="${LOGIN_FORM_PATH}" class="login-form" aria-label="Log in with email and password">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<input type="hidden" name="next" value="${next}">
<button type="submit">Log in</button>
</form>
<p class="login-or"><span>or, with the dashboard token</span></p>
`
    : '';
  return Buffer.from(`${head('Log in', o.stylesheet)}
<body class="login-page">
<main class="login">
<p class="login-brand">Vigil</p>
<h1>Log in to the dashboard</h1>
${o.problem ? `<p class="login-problem" role="alert">${escapeHtml(o.problem)}</p>\n` : ''}${sso}${local}<form method="post" action="${LOGIN_FORM_PATH}" class="login-form" aria-label="Log in with the dashboard token">
<label for="token">Dashboard token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required${o.provider || o.localUsers ? '' : ' autofocus'}>
<input type="hidden" name="next" value="${next}">
<button type="submit">Log in${o.provider || o.localUsers ? ' with the token' : ''}</button>
</form>
<p class="login-hint">The token is <code>control_plane.token</code> in the config file, or the one Vigil printed with the dashboard link when it first started. It always logs in as the owner. Lost it? Stop Vigil, run <code>npx vigil token reset -config FILE</code> where you run it, and start it again: it prints a new link.</p>
</main>
</body>
</html>
`, 'utf8');
}

/**
 * The page a finished single sign-on answers with: it opens `next` by a refresh from our own page. A redirect would
 * continue the navigation the provider started, and a browser would not send the SameSite=Strict session cookie
 * along it; the refresh is a navigation of our own.
 */
export function signedInPage(next: string, stylesheet: string | undefined): Buffer {
  const target = escapeHtml(next);
  return Buffer.from(`${head('Signed in', stylesheet, `<meta http-equiv="refresh" content="0;url=${target}">\n`)}
<body class="login-page">
<main class="login">
<p class="login-brand">Vigil</p>
<h1>Signed in</h1>
<p class="login-hint">Opening the dashboard… <a href="${target}">Continue</a></p>
</main>
</body>
</html>
`, 'utf8');
}

/** After logging out of Vigil, an OIDC user is sent on to sign out at the provider too (a refresh, for the CSP's sake). */
export function signingOutPage(providerUrl: string, provider: string, stylesheet: string | undefined): Buffer {
  const target = escapeHtml(providerUrl);
  return Buffer.from(`${head('Signed out', stylesheet, `<meta http-equiv="refresh" content="0;url=${target}">\n`)}
<body class="login-page">
<main class="login">
<p class="login-brand">Vigil</p>
<h1>Signed out of Vigil</h1>
<p class="login-hint">Signing you out at ${escapeHtml(provider)} too… <a href="${target}">Continue</a></p>
</main>
</body>
</html>
`, 'utf8');
}
