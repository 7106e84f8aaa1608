import { defineErrorCodes } from '@vigil/plugin-sdk';

/** Codes of the files plugin (Host › Storage and Files). */
export const FilesErrors = defineErrorCodes('FILES', {
  PATH: {
    status: 400,
    meaning: 'A path that may not be used: not absolute, holding a NUL byte, missing, of the wrong kind (a folder where a file is needed), or outside the folders the file tools may touch once symbolic links and `..` are resolved.',
    action: 'Give an absolute path under one of `files.roots` (for scans, `files.scan_roots`); the message names the roots.',
  },
  BUSY: {
    status: 429,
    meaning: 'As many scans as `files.max_scans` are running already.',
    action: 'Wait for one to finish or cancel one (the Storage page lists them), then start again.',
  },
  SCAN_UNKNOWN: {
    status: 404,
    meaning: 'No scan has this id: it never existed, or it finished more than 15 minutes ago and its answer was let go.',
    action: 'Start the scan again.',
  },
  SCAN_KIND: {
    status: 409,
    meaning: 'The scan is not of the kind this route reads (a drill-down asked of a duplicate scan), or it has not finished.',
    action: 'Read a folder-size scan\'s folders once its state is `done`.',
  },
  PATTERN: {
    status: 400,
    meaning: 'A search pattern that is empty, longer than 256 characters, or not a valid regular expression (JavaScript syntax, `u` flag).',
    action: 'Fix the pattern the message quotes, or search for plain text (regex=0).',
  },
  TOO_LARGE: {
    status: 413,
    meaning: 'A file larger than the editor or the preview takes (`files.edit_limit` for text, 20 MiB for images).',
    action: 'Open a smaller file, or raise `files.edit_limit` (at most 16 MiB).',
  },
  NOT_TEXT: {
    status: 415,
    meaning: 'The file is not text (it holds NUL bytes or is not valid UTF-8), or not an image type the preview shows.',
    action: 'Open it with a program that knows its format.',
  },
  CHANGED: {
    status: 409,
    meaning: 'The file changed on disk since the editor read it (its modification time or size is not the one the editor holds).',
    action: 'Reload the file, merge your edits, and save again.',
  },
  EXISTS: {
    status: 409,
    meaning: 'Something already exists where a file would be restored from the trash.',
    action: 'Move or rename what is there, then restore again.',
  },
  TRASH_ITEM: {
    status: 404,
    meaning: 'No item of the trash has this name, or its .trashinfo is missing or unreadable.',
    action: 'Reload the trash list; another program may have restored or emptied it.',
  },
  TRASH_DEVICE: {
    status: 409,
    meaning: 'The file is on another filesystem than the home trash ($XDG_DATA_HOME/Trash); moving it there would be a copy.',
    action: 'Use the file manager of that drive, or move the file to the home filesystem first.',
  },
  NEEDS_ROOT: {
    status: 403,
    meaning: 'Cleaning the package cache or the journal needs root, and Vigil does not run as root.',
    action: 'Run the command the message gives in a terminal with sudo.',
  },
  NO_HELPER: {
    status: 503,
    meaning: 'A SMART check was asked for, but the privileged helper (plugin `privilege`) is off.',
    action: 'Add `privilege: {}` to the config (plugins/privilege/README.md says how it elevates).',
  },
  BACKUP_UNSET: {
    status: 409,
    meaning: 'A backup run was asked for before its folders and destination were set.',
    action: 'Set them on the Storage page (Backup) or with POST /api/backup, then run again.',
  },
  TOOL: {
    status: 503,
    meaning: 'A tool the page asked about (docker, smartctl, journalctl) failed or did not answer within its timeout.',
    action: 'The message carries what the tool said; run it by hand to see more.',
  },
});
