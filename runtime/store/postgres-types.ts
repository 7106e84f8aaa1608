import pg from 'pg';

const INT8 = 20;
const NUMERIC = 1700;
const INT8_ARRAY = 1016;
const NUMERIC_ARRAY = 1231;
const INT4_ARRAY = 1007;
const FLOAT8_ARRAY = 1022;

/**
 * Type parsers for one pool. BIGINT (times in ms, ids, COUNT(*)) and NUMERIC (SUM/AVG of integers) come back as
 * numbers, as on SQLite; values past 2^53 lose precision, which epoch milliseconds and counts never reach.
 * Scoped to the pool so other pg users in the process keep the driver's defaults.
 */
const builtin = pg.types.getTypeParser as (oid: number, format?: string) => (value: string) => unknown;

export const numericTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) => {
    if (format !== 'binary') {
      if (oid === INT8) return (value: string) => Number(value);
      if (oid === NUMERIC) return (value: string) => Number(value);
      if (oid === INT8_ARRAY) return builtin(INT4_ARRAY, 'text');
      if (oid === NUMERIC_ARRAY) return builtin(FLOAT8_ARRAY, 'text');
    }
    return builtin(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};
