import { defineErrorCodes, httpError, type HttpError } from '@vigil/plugin-sdk';

/** Codes of the developer tools (plugin `devtools`): the project launcher and GNOME tweaks. */
export const DevtoolsErrors = defineErrorCodes('DEVTOOLS', {
  FOLDER_REFUSED: {
    status: 403,
    meaning: 'The folder is outside the folders projects may be picked from (`devtools.roots`), after its symlinks are resolved, or is not a folder.',
    action: 'Pick a folder under one of the roots `GET /api/projectscripts` lists, or add its parent to `devtools.roots`.',
  },
  FOLDER_MISSING: {
    status: 404,
    meaning: 'There is no folder at that path.',
    action: 'Check the path; pick the folder again from the roots.',
  },
  SCRIPT_UNKNOWN: {
    status: 400,
    meaning: 'The folder has no package script or make target of that name (as detected at the moment of the run).',
    action: 'Reload the folder\'s scripts with `GET /api/projectscripts?dir=` and run one of those.',
  },
  TOO_MANY_RUNS: {
    status: 409,
    meaning: 'As many runs as `devtools.max_running` allows are running already.',
    action: 'Wait for one to end or stop one, then run again.',
  },
  RUN_UNKNOWN: {
    status: 404,
    meaning: 'No run of this process has that id (output is kept in memory while Vigil runs; the history keeps its tail).',
    action: 'List the runs with `GET /api/projectruns`.',
  },
  GNOME_UNAVAILABLE: {
    status: 424,
    meaning: '`gsettings` is not installed, or the GNOME schemas are not, so GNOME settings cannot be read or written here.',
    action: 'Install `gsettings` (Debian: libglib2.0-bin) and the schemas (gsettings-desktop-schemas), or ignore the page on a machine without GNOME.',
  },
  GNOME_KEY_UNKNOWN: {
    status: 400,
    meaning: 'The setting is not one of the GNOME tweaks this page offers, or its schema is not installed here.',
    action: 'Pick a setting `GET /api/gnome` lists as available.',
  },
  GNOME_VALUE: {
    status: 400,
    meaning: 'The value is outside what the setting accepts, as `gsettings range` reports it (a choice, a number range, a type).',
    action: 'Send a value of the type and range `GET /api/gnome` lists for the setting.',
  },
  GSETTINGS_FAILED: {
    status: 502,
    meaning: '`gsettings` failed or timed out; the message is its own.',
    action: 'Check the message; on a desktop session, that the dconf service answers (`gsettings get` in a terminal).',
  },
});

export const folderRefused = (message: string): HttpError => httpError(DevtoolsErrors.FOLDER_REFUSED, message);
