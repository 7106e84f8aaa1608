import type { FuncKeywordDefinition } from 'ajv/dist/2020.js';
import type { DataValidateFunction } from 'ajv/dist/types/index.js';
import type { ConfigFormat } from './formats.js';

/**
 * `formatMinimum` and `formatMaximum`: inclusive bounds on a quantity format, written in that format
 * (`{ format: 'duration', formatMinimum: '1ms', formatMaximum: '1m' }`). The names are those of ajv-formats' keywords
 * for dates; here they also bound a number given where the format is allowed, since such a number is already in the
 * format's unit (ms, bytes). A string that does not parse is left to `format` to report.
 *
 * A schema check, rather than a check in the plugin's code after validation, is what gives the problem its file,
 * line and key path.
 */
export function formatLimitKeywords(formats: Record<string, ConfigFormat>): FuncKeywordDefinition[] {
  return (['formatMinimum', 'formatMaximum'] as const).map((keyword) => ({
    keyword,
    type: ['string', 'number'],
    schemaType: ['string', 'number'],
    errors: true,
    compile(limitText: string | number, parentSchema: Record<string, unknown>): DataValidateFunction {
      const formatName = String(parentSchema.format);
      const magnitude = formats[formatName]?.magnitude;
      if (!magnitude) throw new Error(`${keyword} needs a quantity format (duration or byte-size) beside it, not format ${JSON.stringify(parentSchema.format)}`);
      const limit = magnitude(limitText);
      if (limit === undefined) throw new Error(`${keyword} ${JSON.stringify(limitText)} is not a valid ${formatName}`);
      const comparison = keyword === 'formatMinimum' ? '>=' : '<=';
      const within = keyword === 'formatMinimum' ? (n: number) => n >= limit : (n: number) => n <= limit;
      const validate: DataValidateFunction = (data: unknown) => {
        const n = typeof data === 'number' ? data : magnitude(data);
        if (n === undefined || within(n)) return true;
        validate.errors = [{ keyword, params: { comparison, limit: limitText }, message: `must be ${comparison} ${limitText}` }];
        return false;
      };
      return validate;
    },
  }));
}
