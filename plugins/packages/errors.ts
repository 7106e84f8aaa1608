import { defineErrorCodes } from '@vigil/plugin-sdk';

/** Codes of the packages plugin (the Packages tab). */
export const PackagesErrors = defineErrorCodes('PACKAGES', {
  MANAGER: {
    status: 400,
    meaning: 'The package manager asked for (`mgr`) is not one this machine has.',
    action: 'Use one of the managers `GET /api/installed` lists under `managers`, or leave `mgr` out for the native one.',
  },
  NOT_INSTALLED: {
    status: 404,
    meaning: 'The package to update or remove is not installed (under that manager).',
    action: 'Reload the list; only installed packages can be updated or removed here.',
  },
  NONE: {
    status: 503,
    meaning: 'No package manager was found on this machine (apt, dnf, pacman, zypper, snap, flatpak).',
    action: 'Nothing to do here; the Packages page says so.',
  },
});
