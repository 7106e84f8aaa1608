// index.html with the display settings on its <html>, so the first paint has the chosen theme without any inline
// script. Each distinct set of settings is rendered and compressed once (there are twelve at most).
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Encoding } from './content-encoding.js';
import type { DisplaySettings } from './display-settings.js';

const ROOT_TAG = '<html lang="en">';

export interface RenderedPage {
  etag: string;
  forms: Partial<Record<Encoding, Buffer>> & { identity: Buffer };
}

/** The attributes the front end reads back (ui/src/shell/display-settings.ts). Values are from fixed sets. */
export function settingsAttributes(s: DisplaySettings): string {
  return ` data-theme="${s.theme}" data-simple-mode="${s.simple_mode}" data-reduce-effects="${s.reduce_effects}"`;
}

export class IndexPage {
  private readonly cache = new Map<string, RenderedPage>();

  constructor(private readonly template: string) {
    if (!template.includes(ROOT_TAG)) throw new Error(`index.html must contain ${ROOT_TAG}`);
  }

  render(settings: DisplaySettings): RenderedPage {
    const attributes = settingsAttributes(settings);
    let page = this.cache.get(attributes);
    if (!page) {
      const identity = Buffer.from(this.template.replace(ROOT_TAG, `<html lang="en"${attributes}>`), 'utf8');
      page = {
        // Weak: the same page goes out in three encodings.
        etag: `W/"${createHash('sha256').update(identity).digest('base64url').slice(0, 16)}"`,
        forms: {
          identity,
          gzip: gzipSync(identity, { level: 9 }),
          br: brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } }),
        },
      };
      this.cache.set(attributes, page);
    }
    return page;
  }
}
