import type { JsonSchema } from '@vigil/plugin-sdk';

/** The `selfupdate:` section. `selfupdate: {}` shows the install method and version; checking needs `release_url`. */
export interface SelfUpdateConfig {
  /** The release feed: the newest release as JSON (docs/releases.md), or a GitHub-releases-compatible `…/releases/latest`. */
  release_url?: string;
  /** The Ed25519 public key (PEM) releases are signed with; Update now refuses without it. */
  public_key?: string;
  /** The installation to update; default the folder this Vigil runs from. */
  install_dir?: string;
  /** Time limit of the feed request and of each download. */
  request_timeout: string | number;
  /** Time limit of each step of an update (git fetch, npm ci, the build, npm install). */
  step_timeout: string | number;
}

export const selfUpdateConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'Self-update (About page): checks the release feed on request, fast-forwards a git checkout or installs the new npm package after verifying its signature, and restarts Vigil detached.',
  properties: {
    release_url: {
      type: 'string', minLength: 8, maxLength: 2048, pattern: '^https?://',
      description: 'The release feed, asked only when an owner presses Check for updates or Update now: a JSON document of the newest release (docs/releases.md), or a GitHub-releases-compatible `…/releases/latest` URL.',
    },
    public_key: {
      type: 'string', minLength: 1, maxLength: 4096,
      description: 'The Ed25519 public key (PEM) the releases are signed with, relative to the config file. Keep it apart from the feed: a key fetched with the release proves nothing.',
    },
    install_dir: {
      type: 'string', minLength: 1, maxLength: 4096,
      description: 'The installation to update (a git checkout, or the package folder of an npm install), relative to the config file. Default: the folder this Vigil runs from.',
    },
    request_timeout: {
      type: ['string', 'integer'], format: 'duration', formatMinimum: '1s', formatMaximum: '10m', default: '30s',
      description: 'Time limit of the feed request and of each download (the archive, SHA256SUMS, its signature).',
    },
    step_timeout: {
      type: ['string', 'integer'], format: 'duration', formatMinimum: '5s', formatMaximum: '1h', default: '15m',
      description: 'Time limit of each program an update runs (git fetch, git merge, npm ci, the build, npm install); SIGTERM at the limit, SIGKILL 5 s later.',
    },
  },
};
