import pg from 'pg';

// 64-bit integers (counts, millisecond times) as numbers: every value we store fits in 2^53.
const INT8_OID = 20;
export const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format: 'text'): ((value: string) => unknown) =>
    oid === INT8_OID
      ? (value: string) => Number(value)
      : (pg.types.getTypeParser(oid, format) as (value: string) => unknown)) as pg.CustomTypesConfig['getTypeParser'],
};
