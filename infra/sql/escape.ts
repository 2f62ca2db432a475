/**
 * The one place values become ClickHouse SQL text. ClickHouse 18.16 (Debian's package) has no
 * server-side query parameters, so every value in a query is bound here, and this module is
 * property-tested against a real server (escape.test.ts).
 *
 * Strings are single-quoted; backslash, quote and every control character are escaped (the
 * latter as `\xHH`), everything else passes through as UTF-8. Numbers print in their shortest
 * round-trip form; subnormal doubles, which the 18.16 parser rejects as literals, are rebuilt from
 * their bytes. Identifiers are validated, never escaped, so a name can't smuggle SQL.
 */

export type SqlValue = string | number | bigint | boolean | null | readonly SqlValue[];

/** Trusted SQL text (identifiers, fragments built by `sql`), inserted verbatim by `sql`. */
export class SqlFragment {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const HEX = '0123456789abcdef';

/** A single-quoted ClickHouse string literal that reads back as exactly `value`. */
export function sqlString(value: string): string {
  let out = "'";
  for (let i = 0; i < value.length; i++) {
    const ch = value[i] as string;
    const code = value.charCodeAt(i);
    if (ch === '\\') out += '\\\\';
    else if (ch === "'") out += "\\'";
    else if (code < 0x20 || code === 0x7f) out += '\\x' + HEX[code >> 4] + HEX[code & 15];
    else out += ch;
  }
  return out + "'";
}

const MIN_NORMAL = 2.2250738585072014e-308;

/** A numeric literal (or, for subnormals, an exact expression). Rejects NaN and infinities. */
export function sqlNumber(value: number | bigint): string {
  if (typeof value === 'bigint') return value.toString();
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  if (Object.is(value, -0)) return '-0.';
  if (value !== 0 && Math.abs(value) < MIN_NORMAL) {
    const bytes = new Uint8Array(new Float64Array([value]).buffer);
    let hex = '';
    for (const b of bytes) hex += HEX[b >> 4]! + HEX[b & 15]!;
    return `reinterpretAsFloat64(unhex('${hex}'))`;
  }
  // shortest round-trip form; the parser reads `1e+21` and `1e-7` exactly like JS prints them
  return String(value);
}

/**
 * ClickHouse types each integer literal by its smallest type (UInt8..UInt64, Int8..Int64), and an
 * array needs a common supertype: [-1, 4294967296] (Int8, UInt64) has none on 18.16, nor has a
 * float next to an integer beyond Int64. Such arrays are written as Float64, which is exact for
 * every JS number.
 */
function needsFloatArray(items: readonly number[]): boolean {
  let negative = false;
  let large = false;
  for (const n of items) {
    // -0 is written as the float `-0.` (an integer literal would lose its sign)
    if (!Number.isInteger(n) || Object.is(n, -0) || Math.abs(n) >= 2 ** 63) return true;
    if (n < 0) negative = true;
    if (n >= 2 ** 32) large = true;
  }
  return negative && large;
}

/** a number as a Float64 literal (`5` becomes `5.`) */
function sqlFloat(n: number): string {
  const text = sqlNumber(n);
  return /^-?\d+$/.test(text) ? text + '.' : text;
}

/** Any bindable value as SQL text: strings, numbers, booleans as 1/0, NULL, arrays. */
export function sqlValue(value: SqlValue | SqlFragment): string {
  if (value instanceof SqlFragment) return value.text;
  if (value === null) return 'NULL';
  if (typeof value === 'string') return sqlString(value);
  if (typeof value === 'number' || typeof value === 'bigint') return sqlNumber(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (Array.isArray(value)) {
    const items = value as readonly SqlValue[];
    if (items.length > 0 && items.every((v) => typeof v === 'number') && needsFloatArray(items as number[])) {
      return '[' + (items as number[]).map(sqlFloat).join(', ') + ']';
    }
    return '[' + items.map((v) => sqlValue(v)).join(', ') + ']';
  }
  throw new TypeError(`not a bindable SQL value: ${typeof value}`);
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A validated identifier (database, table, column); throws on anything but [A-Za-z0-9_]. */
export function sqlIdent(name: string): SqlFragment {
  if (!IDENT.test(name)) throw new TypeError(`invalid SQL identifier: ${JSON.stringify(name)}`);
  return new SqlFragment(name);
}

/** `db.table` from two validated identifiers. */
export function sqlTable(database: string, table: string): SqlFragment {
  return new SqlFragment(`${sqlIdent(database).text}.${sqlIdent(table).text}`);
}

/**
 * Tagged template: interpolated values are bound with `sqlValue`, fragments inserted as is.
 *   sql`SELECT body FROM ${sqlTable(db, t)} WHERE key = ${key}`
 */
export function sql(strings: TemplateStringsArray, ...values: (SqlValue | SqlFragment)[]): SqlFragment {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) {
    out += sqlValue(values[i] as SqlValue | SqlFragment) + (strings[i + 1] ?? '');
  }
  return new SqlFragment(out);
}
