/**
 * A tiny structural checker for the REST resources of the spec (nested objects, arrays, enums, nullability).
 * Pure; never throws; reports every mismatch with a JSON path.
 */
export type Shape =
  | 'string'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'any'
  | 'date'
  | { enum: readonly string[] }
  | { pattern: RegExp; length?: number; doc: string }
  | { array: Shape }
  | { nullable: Shape }
  | { object: Readonly<Record<string, Field>>; open?: boolean };
export type Field = readonly [shape: Shape, required: boolean];

export interface ShapeProblem {
  path: string;
  kind: 'required' | 'type' | 'enum' | 'unknown';
  message: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/;

function describe(v: unknown): string {
  if (v === null) {
    return 'null';
  }
  if (Array.isArray(v)) {
    return 'an array';
  }
  if (typeof v === 'string') {
    return `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}"`;
  }
  if (typeof v === 'object') {
    return 'an object';
  }
  return `${typeof v} ${String(v)}`;
}

function shapeName(s: Shape): string {
  if (typeof s === 'string') {
    return s === 'date' ? 'a date string' : s;
  }
  if ('enum' in s) {
    return `one of ${s.enum.join(', ')}`;
  }
  if ('pattern' in s) {
    return s.doc;
  }
  if ('array' in s) {
    return `an array of ${shapeName(s.array)}`;
  }
  if ('nullable' in s) {
    return `${shapeName(s.nullable)} or null`;
  }
  return 'an object';
}

export function checkShape(
  value: unknown,
  shape: Shape,
  path = '$',
  out: ShapeProblem[] = [],
  depth = 0,
): ShapeProblem[] {
  if (depth > 50) {
    return out;
  }
  const bad = (message: string, kind: ShapeProblem['kind'] = 'type') => out.push({ path, kind, message });
  if (typeof shape === 'string') {
    switch (shape) {
      case 'any':
        return out;
      case 'string':
        if (typeof value !== 'string') {
          bad(`${describe(value)} is not a string`);
        }
        return out;
      case 'boolean':
        if (typeof value !== 'boolean') {
          bad(`${describe(value)} is not a boolean`);
        }
        return out;
      case 'number':
        if (typeof value !== 'number') {
          bad(`${describe(value)} is not a number`);
        }
        return out;
      case 'integer':
        if (typeof value !== 'number' || !Number.isInteger(value)) {
          bad(`${describe(value)} is not an integer`);
        }
        return out;
      case 'date':
        if (typeof value !== 'string' || !DATE.test(value)) {
          bad(`${describe(value)} is not a date or date-time string`);
        }
        return out;
    }
  }
  if ('nullable' in shape) {
    return value === null ? out : checkShape(value, shape.nullable, path, out, depth);
  }
  if ('enum' in shape) {
    if (typeof value !== 'string' || !shape.enum.includes(value)) {
      bad(`${describe(value)} is not ${shapeName(shape)}`, 'enum');
    }
    return out;
  }
  if ('pattern' in shape) {
    if (
      typeof value !== 'string' ||
      !shape.pattern.test(value) ||
      (shape.length !== undefined && value.length !== shape.length)
    ) {
      bad(`${describe(value)} is not ${shape.doc}`);
    }
    return out;
  }
  if ('array' in shape) {
    if (!Array.isArray(value)) {
      bad(`${describe(value)} is not an array`);
      return out;
    }
    value.forEach((item, i) => {
      checkShape(item, shape.array, `${path}[${i}]`, out, depth + 1);
    });
    return out;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    bad(`${describe(value)} is not an object`);
    return out;
  }
  const obj = value as Record<string, unknown>;
  for (const [name, [s, required]] of Object.entries(shape.object)) {
    if (!(name in obj) || obj[name] === undefined) {
      if (required) {
        out.push({ path: `${path}.${name}`, kind: 'required', message: `"${name}" is missing` });
      }
      continue;
    }
    checkShape(obj[name], s, `${path}.${name}`, out, depth + 1);
  }
  if (!shape.open) {
    for (const k of Object.keys(obj)) {
      if (!(k in shape.object)) {
        out.push({ path: `${path}.${k}`, kind: 'unknown', message: `"${k}" is not a documented field` });
      }
    }
  }
  return out;
}
