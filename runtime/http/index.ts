export { createControlPlane } from './control-plane.js';
export type { ControlPlane, ControlPlaneOptions } from './control-plane.js';
export { hashToken, loadOrCreateDashboardToken } from './dashboard-token.js';
export { HttpErrors } from './errors.js';
export { SESSION_COOKIE } from './session-cookie.js';
