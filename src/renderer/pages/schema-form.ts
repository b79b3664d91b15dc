import { type NameRecord, nameRecord, own } from '../../shared/own';
import { inlineProperties, isNode } from '../../shared/schema-refs';

/** The subset of JSON Schema a tool form understands; anything else is edited as JSON. */
export interface PropertySchema {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  default?: unknown;
  title?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';

export interface FormField {
  name: string;
  kind: FieldKind;
  required: boolean;
  description?: string;
  /** For `enum`: the allowed values, of any JSON type (numbers stay numbers). */
  options?: unknown[];
  default?: unknown;
  min?: number;
  max?: number;
}

const isPrimitive = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

export function fieldsOf(schema: Record<string, unknown>): FormField[] {
  // An argument defined by a `$ref` reads as its definition (a choice, a number…), not as "JSON".
  const properties = (isNode(schema.properties) ? inlineProperties(schema, schema.properties) : {}) as Record<string, PropertySchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, prop]) => {
    const type = Array.isArray(prop.type) ? prop.type.find((t) => t !== 'null') : prop.type;
    let kind: FieldKind = 'json';
    if (Array.isArray(prop.enum) && prop.enum.length > 0 && prop.enum.every(isPrimitive)) kind = 'enum';
    else if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean') kind = type;
    const min = prop.minimum ?? prop.exclusiveMinimum;
    const max = prop.maximum ?? prop.exclusiveMaximum;
    return {
      name,
      kind,
      required: required.has(name),
      ...(prop.description ? { description: prop.description } : {}),
      ...(kind === 'enum' ? { options: prop.enum as unknown[] } : {}),
      ...(prop.default !== undefined ? { default: prop.default } : {}),
      ...(typeof min === 'number' ? { min } : {}),
      ...(typeof max === 'number' ? { max } : {}),
    };
  });
}

/** Keyed by the tool's argument names (a server's): no prototype, so an argument called `constructor` starts empty. */
export type FormValues = NameRecord<string | boolean>;

/** The form's starting values: each field's schema default, as the field shows it. */
export function initialValues(fields: FormField[]): FormValues {
  const values: FormValues = nameRecord();
  for (const field of fields) {
    if (field.default === undefined) continue;
    if (field.kind === 'boolean') values[field.name] = field.default === true;
    else if (field.kind === 'enum') {
      const index = field.options?.findIndex((o) => JSON.stringify(o) === JSON.stringify(field.default)) ?? -1;
      if (index >= 0) values[field.name] = String(index);
    } else if (field.kind === 'json') values[field.name] = JSON.stringify(field.default, null, 2);
    else values[field.name] = String(field.default);
  }
  return values;
}

export type FieldErrorCode = 'required' | 'number' | 'integer' | 'json' | 'min' | 'max';

/** Turns the form's text into arguments; says which field is wrong when it cannot. */
export function argumentsFrom(
  fields: FormField[],
  values: FormValues,
): { args?: Record<string, unknown>; errors: NameRecord<FieldErrorCode> } {
  const args = nameRecord<unknown>();
  const errors = nameRecord<FieldErrorCode>();
  for (const field of fields) {
    const value = own(values, field.name);
    if (field.kind === 'boolean') {
      if (value !== undefined) args[field.name] = value === true;
      continue;
    }
    const text = typeof value === 'string' ? value.trim() : '';
    if (text === '') {
      if (field.required) errors[field.name] = 'required';
      continue;
    }
    if (field.kind === 'enum') {
      const option = field.options?.[Number(text)];
      if (option === undefined) errors[field.name] = 'required';
      else args[field.name] = option;
    } else if (field.kind === 'number' || field.kind === 'integer') {
      const n = Number(text);
      if (!Number.isFinite(n) || (field.kind === 'integer' && !Number.isInteger(n))) errors[field.name] = field.kind;
      else if (field.min !== undefined && n < field.min) errors[field.name] = 'min';
      else if (field.max !== undefined && n > field.max) errors[field.name] = 'max';
      else args[field.name] = n;
    } else if (field.kind === 'json') {
      try {
        args[field.name] = JSON.parse(text);
      } catch {
        errors[field.name] = 'json';
      }
    } else args[field.name] = typeof value === 'string' ? value : '';
  }
  return Object.keys(errors).length > 0 ? { errors } : { args: { ...args }, errors };
}
