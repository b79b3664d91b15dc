/**
 * What is wrong with a value in a config (a settings schema's problem, `config.invalidValue`): the
 * CLI's `check` and every loader say it with its line and JSON path. Merged into en.ts.
 */
export const configWordsEn = {
  'zod.required': 'is required',
  'zod.type': 'must be {expected}, not {got}',
  'zod.one': 'must be {values}',
  'zod.oneOf': 'must be one of {values}',
  'zod.requiredOneOf': 'is required and must be one of {values}',
  'zod.noForm': 'does not match any of the allowed forms',
  'zod.notEmpty': 'must not be empty',
  'zod.atLeast': 'must be at least {size}',
  'zod.moreThan': 'must be more than {size}',
  'zod.atMost': 'must be at most {size}',
  'zod.lessThan': 'must be less than {size}',
  'zod.format': 'must be a valid {format}',
  'zod.multipleOf': 'must be a multiple of {divisor}',
  'zod.unknownKeys': 'has unknown {count, plural, one {key} other {keys}} {keys}',
  'zod.badKey': 'has a key that is not allowed',
  'zod.badElement': 'has a value that is not allowed',
  'zod.size.chars': '{count} {count, plural, one {character} other {characters}}',
  'zod.size.items': '{count} {count, plural, one {item} other {items}}',
  'zod.size.plain': '{count}',
  'zod.kind.string': 'text',
  'zod.kind.number': 'a number',
  'zod.kind.int': 'a whole number',
  'zod.kind.fraction': 'a fraction',
  'zod.kind.boolean': 'true or false',
  'zod.kind.object': 'an object',
  'zod.kind.record': 'an object',
  'zod.kind.array': 'a list',
  'zod.kind.null': 'null',
  'problem.config.unknownKey': '"{key}" is not a setting and is ignored',
  'problem.config.unknownKeyNear': '"{key}" is not a setting and is ignored; did you mean "{suggestion}"?',
  // t-words9
  'problem.config.noCommandOrUrl': 'has neither "command" (a program to run) nor "url" (a remote server)',
};
