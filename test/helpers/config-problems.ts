import { ConfigError, formatProblem } from '../../src/main/core/config/json-text';

/** The problems a config error reports, as the user reads them; fails if nothing was thrown. */
export function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map(formatProblem);
    throw error;
  }
  throw new Error('expected a ConfigError');
}
