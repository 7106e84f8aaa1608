/** Paths of the login pages: the form, the logout, and single sign-on's start and callback. */
export const LOGIN_FORM_PATH = '/login';
export const LOGOUT_FORM_PATH = '/logout';
export const OIDC_LOGIN_PATH = '/auth/oidc/login';
export const OIDC_CALLBACK_PATH = '/auth/oidc/callback';
