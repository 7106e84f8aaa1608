// Things only the browser can do for the session cookie's sake: a download and the logout are real requests from
// this page (cookie, Origin), never a URL with the token in it.

/** Downloads `path` (a control-plane path) the way a link with `download` would. */
export function download(path: string): void {
  const a = document.createElement('a');
  a.href = path;
  a.download = '';
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** Logs out: POST /logout from this page (the browser adds Origin), which clears the cookie and opens the login form. */
export function logOut(): void {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = '/logout';
  document.body.appendChild(form);
  form.submit();
}
