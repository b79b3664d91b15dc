/** The subset of JSON Schema a tool form understands; anything else is edited as JSON. */
export interface PropertySchema {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  default?: unknown;
  title?: string;
}

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';

export interface FormField {
  name: string;
  kind: FieldKind;
  required: boolean;
  description?: string;
  options?: string[];
}

export function fieldsOf(schema: Record<string, unknown>): FormField[] {
  const properties = (schema.properties ?? {}) as Record<string, PropertySchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, prop]) => {
    const type = Array.isArray(prop.type) ? prop.type.find((t) => t !== 'null') : prop.type;
    let kind: FieldKind = 'json';
    if (Array.isArray(prop.enum) && prop.enum.every((v) => typeof v === 'string')) kind = 'enum';
    else if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean') kind = type;
    return {
      name,
      kind,
      required: required.has(name),
      ...(prop.description ? { description: prop.description } : {}),
      ...(kind === 'enum' ? { options: prop.enum as string[] } : {}),
    };
  });
}

export type FormValues = Record<string, string | boolean>;

/** Turns the form's text into arguments; says which field is wrong when it cannot. */
export function argumentsFrom(fields: FormField[], values: FormValues): { args?: Record<string, unknown>; errors: Record<string, string> } {
  const args: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === 'boolean') {
      if (value !== undefined) args[field.name] = value === true;
      continue;
    }
    const text = typeof value === 'string' ? value.trim() : '';
    if (text === '') {
      if (field.required) errors[field.name] = 'required';
      continue;
    }
    if (field.kind === 'number' || field.kind === 'integer') {
      const n = Number(text);
      if (!Number.isFinite(n) || (field.kind === 'integer' && !Number.isInteger(n))) errors[field.name] = field.kind;
      else args[field.name] = n;
    } else if (field.kind === 'json') {
      try {
        args[field.name] = JSON.parse(text);
      } catch {
        errors[field.name] = 'json';
      }
    } else args[field.name] = typeof value === 'string' ? value : '';
  }
  return Object.keys(errors).length > 0 ? { errors } : { args, errors };
}
