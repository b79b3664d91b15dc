import fs from 'node:fs';
import path from 'node:path';

import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

import foreignKeys from '../../eslint-rules/foreign-keys.mjs';
import { scaled } from '../helpers/time-scale';

// Issue 30: `toolPolicies[tool.name]` read Object's constructor for a tool called `constructor`. The rule that
// keeps the pattern from coming back, run on a file of the lookups it must and must not report.
const FILE = path.resolve(__dirname, '../fixtures/lint/lookups.ts');
const PROJECT = path.resolve(__dirname, '../fixtures/lint/tsconfig.lookups.json');

describe('the no-inherited-lookup lint rule', () => {
  it(
    'reports lookups and `in` by an open string into plain records, and nothing guarded, owned, null-prototype or literal',
    async () => {
      const eslint = new ESLint({
        cwd: path.resolve(__dirname, '../..'),
        overrideConfigFile: true,
        overrideConfig: [
          {
            files: ['**/*.ts'],
            languageOptions: {
              parser: tseslint.parser,
              // A program of the fixture and what it imports, not the whole tree's (the project service
              // would type-check every file of tsconfig.json first: 45 s of a loaded machine).
              parserOptions: { project: PROJECT, tsconfigRootDir: path.resolve(__dirname, '../..') },
            },
            plugins: { 'foreign-keys': foreignKeys },
            rules: { 'foreign-keys/no-inherited-lookup': 'error' },
          },
        ],
      });
      const [result] = await eslint.lintFiles([FILE]);
      expect(result?.messages.filter((m) => m.fatal)).toEqual([]);
      const reported = (result?.messages ?? []).map((m) => m.line);
      const expected = fs
        .readFileSync(FILE, 'utf8')
        .split('\n')
        .flatMap((line, i) => Array.from({ length: (line.match(/\bflagged\b/g) ?? []).length }, () => i + 1))
        .filter((line) => line > 2);
      expect(reported).toEqual(expected);
    },
    scaled(180_000),
  );
});
