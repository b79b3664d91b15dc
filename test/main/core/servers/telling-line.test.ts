import { spawnSync } from 'node:child_process';

import { describe, expect, it } from 'vitest';

import { TellingLine } from '../../../../src/main/core/servers/telling-line';

const telling = (text: string) => {
  const t = new TellingLine();
  for (const line of text.split('\n')) t.push(line);
  return t.line;
};
/** What node prints on stderr when `script` fails (real output, whatever the version). */
const nodeStderr = (script: string, ...flags: string[]) =>
  spawnSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' }).stderr;

describe('the telling line of a failed start', () => {
  it('is the Error line of a Node crash, not the "Node.js v20" it ends with', () => {
    const out = nodeStderr("throw new Error('FOO_TOKEN is not set')");
    expect(out.trimEnd().split('\n').at(-1)).toMatch(/^Node\.js v\d+/);
    expect(telling(out)).toBe('Error: FOO_TOKEN is not set');
    expect(telling(nodeStderr("require('no-such-module-xyz')"))).toBe("Error: Cannot find module 'no-such-module-xyz'");
    expect(telling(nodeStderr("import 'no-such-package-xyz'", '--input-type=module'))).toMatch(
      /^Error \[ERR_MODULE_NOT_FOUND\]: Cannot find package 'no-such-package-xyz'/,
    );
    expect(telling(nodeStderr('function (', '--input-type=commonjs'))).toMatch(/^SyntaxError: /);
  });

  it('is the last line of a Python traceback, chained or not', () => {
    expect(
      telling(
        'Traceback (most recent call last):\n  File "server.py", line 1, in <module>\n    import mcp\nModuleNotFoundError: No module named \'mcp\'',
      ),
    ).toBe("ModuleNotFoundError: No module named 'mcp'");
    expect(telling('  File "server.py", line 2\n    def f(:\n          ^\nSyntaxError: invalid syntax')).toBe(
      'SyntaxError: invalid syntax',
    );
    const chained = [
      'Traceback (most recent call last):',
      '  File "a.py", line 3, in load',
      "KeyError: 'API_KEY'",
      '',
      'During handling of the above exception, another exception occurred:',
      '',
      'Traceback (most recent call last):',
      '  File "a.py", line 5, in <module>',
      'config.errors.ConfigError: API_KEY is missing from the environment',
    ].join('\n');
    expect(telling(chained)).toBe('config.errors.ConfigError: API_KEY is missing from the environment');
    expect(telling('pydantic_core._pydantic_core.ValidationError: 1 validation error for Settings\n  token\n    Field required')).toBe(
      'pydantic_core._pydantic_core.ValidationError: 1 validation error for Settings',
    );
  });

  it("is npm's first error line, uv's error, Go's panic", () => {
    const npm = [
      'npm error code E404',
      'npm error 404 Not Found - GET https://registry.npmjs.org/@acme%2fmcp-typo - Not found',
      'npm error 404',
      "npm error 404  '@acme/mcp-typo@*' is not in this registry.",
      'npm error 404 Note that you can also install from a',
      'npm error 404 tarball, folder, http url, or git repo.',
      'npm error A complete log of this run can be found in: /home/u/.npm/_logs/x-debug-0.log',
    ].join('\n');
    expect(telling(npm)).toBe('npm error 404 Not Found - GET https://registry.npmjs.org/@acme%2fmcp-typo - Not found');
    expect(
      telling(
        '  × No solution found when resolving tool dependencies:\nerror: Failed to spawn: `mcp-server-typo`\n  Caused by: No such file or directory (os error 2)',
      ),
    ).toBe('error: Failed to spawn: `mcp-server-typo`');
    expect(
      telling(
        'starting\npanic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV]\n\ngoroutine 1 [running]:',
      ),
    ).toBe('panic: runtime error: invalid memory address or nil pointer dereference');
  });

  it('is nothing for output that names no error (banners, warnings, logs)', () => {
    expect(
      telling(
        'Weather MCP server running on stdio\n(node:123) [DEP0040] DeprecationWarning: The `punycode` module is deprecated.\nNode.js v20.20.2',
      ),
    ).toBeUndefined();
    expect(telling('')).toBeUndefined();
  });

  it('keeps a long line short', () => {
    expect(telling(`Error: ${'x'.repeat(1000)}`)?.length).toBeLessThanOrEqual(301);
  });
});
