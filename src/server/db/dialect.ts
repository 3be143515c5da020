import type { ColumnDataType, ColumnDefinitionBuilder } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/** The few column types that differ between SQLite and PostgreSQL. */
export interface ColumnTypes {
  dialect: DialectName;
  /** An auto-numbered integer primary key. */
  serial: ColumnDataType;
  /** Makes a `serial` column the auto-numbered primary key. */
  autoKey: (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
  timestamp: ColumnDataType;
  boolean: ColumnDataType;
  /** The default value `true` for a `boolean` column. */
  true: boolean | number;
}

export function columnTypes(dialect: DialectName): ColumnTypes {
  return dialect === 'postgres'
    ? { dialect, serial: 'serial', autoKey: (c) => c.primaryKey(), timestamp: 'timestamptz', boolean: 'boolean', true: true }
    : {
        dialect,
        serial: 'integer',
        autoKey: (c) => c.primaryKey().autoIncrement(),
        timestamp: 'text',
        boolean: 'integer',
        true: 1,
      };
}

/** An ISO 8601 UTC string from whatever the driver returned. */
export function toIso(value: Date | string): string;
export function toIso(value: Date | string | null): string | null;
export function toIso(value: Date | string | null): string | null {
  if (value === null) return null;
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

export function nowIso(): string {
  return new Date().toISOString();
}
