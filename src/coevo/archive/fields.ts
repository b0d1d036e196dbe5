/**
 * Typed reads of one JSON object's fields, each with its allowed range; a
 * missing, mistyped or out-of-range field is an ImportError naming the file,
 * the line and the field. Numbers are finite unless a reader says otherwise
 * (only metric curves may hold NaN or ±Infinity, see records.ts).
 */
import { fail, isObject, show } from './format';
import { TEXT_LIMITS } from './limits';

/** Inclusive bounds of a number; `above`: the minimum itself is not allowed. */
export interface Range {
  min: number;
  max: number;
  above?: boolean;
}

/** Times in ms since the epoch that a Date can show (ECMAScript's time range). */
export const TIME: Range = { min: 0, max: 8.64e15 };
/** Any finite number within what a float64 represents exactly as an integer: seeds, counts. */
export const SAFE: Range = { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER };
/** Every finite float64. */
export const SAFE_FLOAT: Range = { min: -Number.MAX_VALUE, max: Number.MAX_VALUE };

export function rangeText(r: Range): string {
  if (r === SAFE_FLOAT) return 'a finite number';
  return r.above ? `a number greater than ${r.min} and at most ${r.max}` : `a number from ${r.min} to ${r.max}`;
}

export function inRange(v: unknown, r: Range): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v <= r.max && (r.above ? v > r.min : v >= r.min);
}

export class Fields {
  private readonly o: Record<string, unknown>;
  constructor(
    value: unknown,
    readonly at: string,
  ) {
    if (!isObject(value)) fail(`${at} must be a JSON object`);
    this.o = value;
  }
  bad(key: string, what: string): never {
    return fail(`${this.at}: field '${key}' must be ${what} (found ${show(this.o[key])})`);
  }
  keys(): string[] {
    return Object.keys(this.o);
  }
  has(key: string): boolean {
    return this.o[key] !== undefined;
  }
  raw(key: string): unknown {
    return this.o[key];
  }
  /** A string of at most `max` characters (TEXT_LIMITS: id, name or text). */
  str(key: string, max: number = TEXT_LIMITS.text): string {
    const v = this.o[key];
    return typeof v === 'string' && v.length <= max ? v : this.bad(key, `a string of at most ${max} characters`);
  }
  optStr(key: string, max?: number): string | undefined {
    return this.has(key) ? this.str(key, max) : undefined;
  }
  id(key: string): string {
    const v = this.o[key];
    return typeof v === 'string' && v.length > 0 && v.length <= TEXT_LIMITS.id ? v : this.bad(key, `an id: a string of 1 to ${TEXT_LIMITS.id} characters`);
  }
  optId(key: string): string | undefined {
    return this.has(key) ? this.id(key) : undefined;
  }
  name(key: string): string {
    return this.str(key, TEXT_LIMITS.name);
  }
  /** A finite number within `range`. */
  num(key: string, range: Range = SAFE_FLOAT): number {
    const v = this.o[key];
    return inRange(v, range) ? v : this.bad(key, rangeText(range));
  }
  optNum(key: string, range?: Range): number | undefined {
    return this.has(key) ? this.num(key, range) : undefined;
  }
  /** An integer from 0 (or `min`) to `max`. */
  int(key: string, max: number = Number.MAX_SAFE_INTEGER, min = 0): number {
    const v = this.o[key];
    if (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max) return v;
    return this.bad(key, max === Number.MAX_SAFE_INTEGER && min === 0 ? 'an integer ≥ 0' : `an integer from ${min} to ${max}`);
  }
  time(key: string): number {
    const v = this.o[key];
    return inRange(v, TIME) ? v : this.bad(key, `a time in ms since 1970 (a number from ${TIME.min} to ${TIME.max})`);
  }
  optTime(key: string): number | undefined {
    return this.has(key) ? this.time(key) : undefined;
  }
  bool(key: string): boolean {
    const v = this.o[key];
    return typeof v === 'boolean' ? v : this.bad(key, 'true or false');
  }
  optBool(key: string): boolean | undefined {
    return this.has(key) ? this.bool(key) : undefined;
  }
  numOrStr(key: string): number | string {
    const v = this.o[key];
    if (typeof v === 'string' && v.length <= TEXT_LIMITS.text) return v;
    return inRange(v, SAFE_FLOAT) ? v : this.bad(key, `a finite number or a string of at most ${TEXT_LIMITS.text} characters`);
  }
  oneOf<T extends string>(key: string, allowed: readonly T[]): T {
    const v = this.o[key];
    return allowed.includes(v as T) ? (v as T) : this.bad(key, `one of ${allowed.join(', ')}`);
  }
  nullableOneOf<T extends string>(key: string, allowed: readonly T[]): T | null {
    return this.o[key] === null ? null : this.oneOf(key, allowed);
  }
  runId(expected: string): string {
    const v = this.o.runId;
    return v === expected ? v : this.bad('runId', `the exported run's id ${expected}`);
  }
  list(key: string): unknown[] {
    const v = this.o[key];
    return Array.isArray(v) ? v : this.bad(key, 'an array');
  }
  /** An array of finite numbers within `range`. */
  numbers(key: string, range: Range = SAFE_FLOAT): number[] {
    const v = this.list(key);
    return v.every((x) => inRange(x, range)) ? (v as number[]) : this.bad(key, `an array of numbers, each ${rangeText(range)}`);
  }
  obj(key: string): Fields {
    return isObject(this.o[key]) ? new Fields(this.o[key], `${this.at}: ${key}`) : this.bad(key, 'an object');
  }
  optObj(key: string): Fields | undefined {
    return this.has(key) ? this.obj(key) : undefined;
  }
  nullableObj(key: string): Fields | null {
    return this.o[key] === null ? null : this.obj(key);
  }
  objs(key: string): Fields[] {
    return this.list(key).map((v, i) => new Fields(v, `${this.at}: ${key}[${i}]`));
  }
  strings(key: string, max: number = TEXT_LIMITS.text): Record<string, string> {
    const o = this.obj(key);
    return Object.fromEntries(o.keys().map((k) => [k, o.str(k, max)]));
  }
  /** An object of finite numbers, bounded strings and booleans (a checkpoint's or another tool's config). */
  scalars(key: string): Record<string, number | string | boolean> {
    return this.obj(key).ownScalars();
  }
  /** This object's own fields, as scalars() reads them. */
  ownScalars(): Record<string, number | string | boolean> {
    return Object.fromEntries(
      this.keys().map((k) => {
        const v = this.o[k];
        if (typeof v === 'boolean' || inRange(v, SAFE_FLOAT)) return [k, v];
        if (typeof v === 'string' && v.length <= TEXT_LIMITS.configJson) return [k, v];
        return this.bad(k, `a finite number, a string of at most ${TEXT_LIMITS.configJson} characters, or a boolean`);
      }),
    );
  }
}

