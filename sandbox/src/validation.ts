import { ValidationError } from './http-util';

/** Collects field errors keyed by field path (`setPoint.desiredHeat`, `thermostatIds.3`). */
export class FieldErrors {
  readonly errors: Record<string, string> = {};

  add(path: string, message: string): void {
    if (!(path in this.errors)) this.errors[path] = message;
  }

  has(path: string): boolean {
    return Object.keys(this.errors).some(
      (errorPath) => errorPath === path || errorPath.startsWith(`${path}.`),
    );
  }

  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }

  throwIfAny(): void {
    if (!this.empty) throw new ValidationError(this.errors);
  }
}

export function join(prefix: string, key: string): string {
  return prefix ? `${prefix}.${key}` : key;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Rejects keys that the operation does not accept, naming each. */
export function rejectUnknown(
  errors: FieldErrors,
  body: Record<string, unknown>,
  allowed: readonly string[],
  prefix = '',
  messages: Record<string, string> = {},
): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) errors.add(join(prefix, key), messages[key] ?? 'Unknown field.');
  }
}

/** A partial update must carry at least one of its fields; the error names the path `body`. */
export function requireAnyOf(
  errors: FieldErrors,
  body: Record<string, unknown>,
  fields: readonly string[],
): void {
  if (!fields.some((field) => field in body)) {
    errors.add('body', `Provide at least one of: ${fields.join(', ')}.`);
  }
}

/** A temperature or other decimal: finite, at most two decimals. */
export function decimal(
  errors: FieldErrors,
  path: string,
  value: unknown,
  min: number,
  max: number,
  unit = '',
): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    errors.add(path, 'Must be a number.');
    return undefined;
  }
  if (Math.abs(Math.round(value * 100) - value * 100) > 1e-6) {
    errors.add(path, 'Must have at most two decimals.');
    return undefined;
  }
  if (value < min || value > max) {
    errors.add(path, `Must be between ${min} and ${max}${unit}.`);
    return undefined;
  }
  return value;
}

export function integer(
  errors: FieldErrors,
  path: string,
  value: unknown,
  min: number,
  max: number,
): number | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    errors.add(path, 'Must be an integer.');
    return undefined;
  }
  if (value < min || value > max) {
    errors.add(path, `Must be between ${min} and ${max}.`);
    return undefined;
  }
  return value;
}

export function boolean(errors: FieldErrors, path: string, value: unknown): boolean | undefined {
  if (typeof value !== 'boolean') {
    errors.add(path, 'Must be true or false.');
    return undefined;
  }
  return value;
}

export function oneOf<Value extends string>(
  errors: FieldErrors,
  path: string,
  value: unknown,
  allowed: readonly Value[],
): Value | undefined {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    errors.add(path, `Must be one of: ${allowed.join(', ')}.`);
    return undefined;
  }
  return value as Value;
}

export function string(
  errors: FieldErrors,
  path: string,
  value: unknown,
  minLength: number,
  maxLength: number,
): string | undefined {
  if (typeof value !== 'string') {
    errors.add(path, 'Must be a string.');
    return undefined;
  }
  if (value.length < minLength || value.length > maxLength) {
    errors.add(
      path,
      minLength === maxLength
        ? `Must be ${minLength} characters.`
        : `Must be ${minLength} to ${maxLength} characters.`,
    );
    return undefined;
  }
  if (
    [...value].some(
      (character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f,
    )
  ) {
    errors.add(path, 'Must not contain control characters.');
    return undefined;
  }
  return value;
}

export function isoDate(errors: FieldErrors, path: string, value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    errors.add(path, 'Must be a date in the form YYYY-MM-DD.');
    return undefined;
  }
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    errors.add(path, 'Must be a valid calendar date.');
    return undefined;
  }
  return value;
}

/** The 12-digit thermostat id (the device serial) that every path and list uses. */
export function isThermostatId(value: unknown): value is string {
  return typeof value === 'string' && /^\d{12}$/.test(value);
}

/** The 24-character lowercase hex building id. */
export function isBuildingId(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{24}$/.test(value);
}
