import { afterAll } from 'vitest';

/**
 * Test files share their worker (isolate: false in vitest.config.mts): a variable one file leaves in
 * process.env is there for every file after it. Three did so once, assigning back an unset
 * XDG_CONFIG_HOME as the string "undefined". Each file must leave the environment as it found it
 * (vi.stubEnv and vi.unstubAllEnvs do): this fails the file that does not, and puts it back.
 */
const before = { ...process.env };

afterAll(() => {
  const changed = [...new Set([...Object.keys(before), ...Object.keys(process.env)])].filter((name) => before[name] !== process.env[name]);
  if (changed.length === 0) return;
  for (const name of changed) {
    const value = before[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  throw new Error(
    `this test file left process.env changed: ${changed.join(', ')} (set variables with vi.stubEnv, undo with vi.unstubAllEnvs)`,
  );
});
