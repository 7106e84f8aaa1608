import { definePlugin } from '@vigil/plugin-sdk';

/**
 * The Packages tab: installed software from the native package manager (apt, dnf, pacman or zypper) plus snap and
 * flatpak, filtered and capped on the server; Update, Remove and Upgrade all run through the `privilege` service as
 * jobs whose output the page follows.
 */
export default definePlugin({
  name: 'packages',
  version: '0.1.0',
  configSchema: { type: 'object', additionalProperties: false, properties: {}, description: 'The Packages tab; `packages: {}` turns it on (no settings: apt options are `privilege.apt_options`).' },
  needs: ['http', 'privilege'],
  async setup(ctx) {
    const { startPackages } = await import('./start-packages.js');
    return startPackages(ctx);
  },
});
