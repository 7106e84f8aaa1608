import { tryParseByteSize, tryParseDuration } from './units.js';
import { tryParseListenAddress } from './listen-address.js';

/** A string format that config schemas may name in `format`, and how a problem describes what was expected. */
export interface ConfigFormat {
  validate(value: string): boolean;
  /** Completes "must be …". */
  expected: string;
  /**
   * For formats that are quantities (durations in ms, sizes in bytes): the value's magnitude. It is what
   * `formatMinimum` and `formatMaximum` compare, and a number given where such a format is allowed is already one.
   */
  magnitude?(value: unknown): number | undefined;
}

const hostname = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;
const ipv4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const email = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const date = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const dateTime = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt ]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

function isIpv6(value: string): boolean {
  if (!value.includes(':')) return false;
  try {
    return new URL(`http://[${value}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

/**
 * Formats known to the config validator. The Vigil ones (`duration`, `byte-size`, `listen-address`,
 * `allowed-host`, `storage-url`) plus the common JSON Schema formats plugins reach for. A schema naming any other format does not
 * compile, so a typo in a plugin's schema is caught at its first validation.
 * Formats only check strings: `{ type: ['string', 'integer'], format: 'duration' }` also accepts a number of ms.
 */
export const configFormats: Record<string, ConfigFormat> = {
  duration: {
    validate: (v) => tryParseDuration(v) !== undefined,
    magnitude: tryParseDuration,
    expected: 'a duration like 500ms, 30s, 10m, 2h or 7d (a bare number is milliseconds)',
  },
  'byte-size': {
    validate: (v) => tryParseByteSize(v) !== undefined,
    magnitude: tryParseByteSize,
    expected: 'a size like 512, 64kb, 1mb or 2gb (a bare number is bytes; 1kb = 1024)',
  },
  'listen-address': {
    validate: (v) => tryParseListenAddress(v) !== undefined,
    expected: 'host:port (like 127.0.0.1:9095) or a port number',
  },
  'allowed-host': {
    validate: (v) => v === '*' || hostname.test(v) || ipv4.test(v) || isIpv6(v.replace(/^\[(.*)\]$/, '$1')),
    expected: 'a host name or IP address without a scheme or port (like vigil.example.com or 192.168.1.5), or *',
  },
  'storage-url': {
    validate: (v) => /^sqlite:.+/.test(v) || /^postgres(ql)?:\/\/[^\s]+$/.test(v),
    expected: 'a storage URL: sqlite:<path> or postgres://user@host:5432/db',
  },
  uri: { validate: (v) => /^[A-Za-z][A-Za-z0-9+.-]*:/.test(v) && URL.canParse(v), expected: 'an absolute URI (like https://example.com/path)' },
  hostname: { validate: (v) => hostname.test(v), expected: 'a host name' },
  ipv4: { validate: (v) => ipv4.test(v), expected: 'an IPv4 address' },
  ipv6: { validate: isIpv6, expected: 'an IPv6 address' },
  email: { validate: (v) => email.test(v), expected: 'an email address' },
  uuid: { validate: (v) => uuid.test(v), expected: 'a UUID' },
  date: { validate: (v) => date.test(v), expected: 'a date like 2024-05-31' },
  'date-time': { validate: (v) => dateTime.test(v), expected: 'a date-time like 2024-05-31T12:00:00Z' },
  regex: {
    validate: (v) => {
      try {
        new RegExp(v, 'u');
        return true;
      } catch {
        return false;
      }
    },
    expected: 'a valid regular expression',
  },
};
