import { isRecord } from '../../../shared/is-record';

type Node = Record<string, unknown>;

/** Choices of a select listed at most (a select of every country is left as text). */
const MAX_OPTIONS = 100;

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** `min`/`max` of a selector's config as JSON Schema bounds. */
const bounds = (config: Node): Node => ({
  ...(finite(config.min) ? { minimum: config.min } : {}),
  ...(finite(config.max) ? { maximum: config.max } : {}),
});

/**
 * A field's selector (homeassistant/helpers/selector.py) as JSON Schema, so the hub's argument check
 * refuses a value Home Assistant would refuse, in words, before it answers a bare "400: Bad Request":
 * `number` and `color_temp` with their `min`/`max`, `select` with its options (their `value`s; a list
 * of them when `multiple`; free text when `custom_value`), `boolean`, `object`, `color_rgb`, and text
 * for the rest (entities, text, time, …).
 */
export function selectorSchema(selector: Node): Node {
  const [kind, raw] = Object.entries(selector)[0] ?? ['text', {}];
  const config = isRecord(raw) ? raw : {};
  switch (kind) {
    case 'number':
      return { type: 'number', ...bounds(config) };
    case 'color_temp':
      return { type: 'number', ...bounds(config), ...(typeof config.unit === 'string' ? { description: config.unit } : {}) };
    case 'boolean':
      return { type: 'boolean' };
    case 'object':
      return { type: 'object' };
    case 'color_rgb':
      return { type: 'array', items: { type: 'integer', minimum: 0, maximum: 255 }, minItems: 3, maxItems: 3 };
    case 'select': {
      const options = (Array.isArray(config.options) ? config.options : [])
        .map((o) => (isRecord(o) ? o.value : o))
        .filter((o): o is string => typeof o === 'string');
      const one = options.length > 0 && options.length <= MAX_OPTIONS && config.custom_value !== true ? { enum: options } : {};
      return config.multiple === true ? { type: 'array', items: { type: 'string', ...one } } : { type: 'string', ...one };
    }
    default:
      return { type: 'string' };
  }
}
