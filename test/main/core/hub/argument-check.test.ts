import Ajv from 'ajv';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ArgumentCheck } from '../../../../src/main/core/hub/argument-check';
import { expectedArguments } from '../../../../src/main/core/hub/argument-words';
import { LogBook } from '../../../../src/main/core/logs/log-book';

const weather = {
  name: 'get_daily_forecast',
  server: 'weather',
  inputSchema: {
    type: 'object',
    properties: {
      location: { type: 'string', description: '城市名称、LocationID 或“经度,纬度”' },
      days: { type: 'string', enum: ['3d', '7d', '10d'], description: '预报天数' },
      hours: { type: 'integer', minimum: 1, maximum: 168 },
      stops: { type: 'array', items: { type: 'object', properties: { station: { type: 'string' } }, required: ['station'] } },
    },
    required: ['location'],
    additionalProperties: false,
  },
};

function checker() {
  const logBook = new LogBook();
  return { check: new ArgumentCheck(logBook.logger('app')), logBook };
}

afterEach(() => vi.restoreAllMocks());

describe('argument check', () => {
  it('lets arguments that fit through', () => {
    const { check } = checker();
    expect(check.check(weather, { location: '北京', days: '7d' })).toBeUndefined();
    expect(check.check(weather, { location: '北京', stops: [{ station: 'BJP' }] })).toBeUndefined();
  });

  it('says which argument is missing and what it is', () => {
    const text = checker().check.check(weather, { days: '3d' }) as string;
    expect(text).toContain('The arguments for "get_daily_forecast" are not valid, so it was not called');
    expect(text).toContain('- missing required argument "location" (string: 城市名称、LocationID 或“经度,纬度”)');
    expect(text).toContain('It takes: location (string, required), days (one of "3d", "7d", "10d"), hours (integer), stops (array).');
  });

  it('says which argument has the wrong type, value or range, in plain words', () => {
    const text = checker().check.check(weather, { location: 42, days: '5d', hours: 1.5, extra: true }) as string;
    expect(text).toContain('- "location" must be a string, not a number (42)');
    expect(text).toContain('- "days" must be one of "3d", "7d", "10d", not "5d"');
    expect(text).toContain('- "hours" must be a whole number (integer), not a number (1.5)');
    expect(text).toContain('- unknown argument "extra"');
    expect(checker().check.check(weather, { location: 'x', hours: 0 })).toContain('- "hours" must be >= 1, not 0');
  });

  it('says all of it in Chinese for a Chinese user: which argument, what it must be, what the tool takes', () => {
    const { check } = checker();
    const text = check.check(weather, { location: 42, days: '5d', hours: 0, extra: true, stops: [{}] }, 'zh-CN') as string;
    expect(text.split('\n')).toEqual([
      '工具没有运行，问题是：',
      '- 没有参数“extra”',
      '- “location”应为字符串，不能是数字（42）',
      '- “days”应为 "3d"、"7d"、"10d" 之一，不能是 "5d"',
      '- “hours”应 >= 1，不能是 0',
      '- 缺少必填参数“stops[0].station”',
      '它的参数：location（字符串，必填）、days（"3d"、"7d"、"10d" 之一）、hours（整数）、stops（数组）。',
      '请改正参数后再调用“get_daily_forecast”。',
    ]);
    expect(check.check(weather, { days: '3d' }, 'zh-CN')).toContain(
      '- 缺少必填参数“location”（字符串：城市名称、LocationID 或“经度,纬度”）',
    );
    const output = { name: 'count', server: 's', outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } };
    expect(check.checkOutput(output, { n: 'five' }, 'zh-CN')).toBe(
      '它返回的结构化内容不符合它的输出格式（“n”应为数字，不能是字符串（"five"））',
    );
    expect(check.checkOutput(output, undefined, 'zh-CN')).toBe('它声明了输出格式，却没有返回结构化内容');
  });

  it('names nested arguments by their path', () => {
    const text = checker().check.check(weather, { location: 'x', stops: [{ station: 'A' }, { station: 7 }, {}] }) as string;
    expect(text).toContain('- "stops[1].station" must be a string, not a number (7)');
    expect(text).toContain('- missing required argument "stops[2].station"');
  });

  it('explains a wrong value that is deeply nested or huge without choking on it', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 20_000; i++) deep = { a: deep };
    const { check } = checker();
    expect(check.check(weather, { location: deep })).toContain('- "location" must be a string, not an object');
    expect(check.check(weather, { location: 'x', days: deep })).toContain('- "days" must be one of "3d", "7d", "10d", not an object');
    expect(check.check(weather, { location: 'x', hours: deep })).toContain('- "hours" must be a whole number (integer), not an object');
    const huge = check.check(weather, { location: 'x', days: 'd'.repeat(1_000_000) }) as string;
    expect(huge).toContain('- "days" must be one of "3d", "7d", "10d", not "ddd');
    expect(huge.length).toBeLessThan(1000);
  });

  it('compiles a schema once and keeps it for the next calls', () => {
    const compile = vi.spyOn(Ajv.prototype, 'compile');
    const { check } = checker();
    check.check(weather, { location: 'a' });
    check.check(weather, { location: 'b' });
    check.check(weather, { days: 'x' });
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it('understands draft 2020-12 schemas with $defs, and schemas with an $id seen twice', () => {
    const { check } = checker();
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'urn:example:order',
      type: 'object',
      $defs: { item: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] } },
      properties: { items: { type: 'array', items: { $ref: '#/$defs/item' } } },
      required: ['items'],
    };
    expect(check.check({ name: 'order', server: 's', inputSchema: schema }, { items: [{ sku: 'a' }] })).toBeUndefined();
    expect(check.check({ name: 'order', server: 's', inputSchema: { ...schema } }, { items: [{}] })).toContain(
      'missing required argument "items[0].sku"',
    );
  });

  it('does not enforce a schema that does not compile, and says so once', () => {
    const { check, logBook } = checker();
    const broken = { name: 'bad', server: 'legacy', inputSchema: { type: 'object', properties: { a: { type: 'strnig' } } } };
    for (let i = 0; i < 3; i++) expect(check.check(broken, { a: 1 })).toBeUndefined();
    // A server that lists its tools again hands over new schema objects: still one warning.
    expect(check.check({ ...broken, inputSchema: structuredClone(broken.inputSchema) }, {})).toBeUndefined();
    const warnings = logBook.entries().filter((e) => e.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toMatch(
      /the input schema of tool "bad" \(server "legacy"\) is not valid JSON Schema, so its arguments are not checked/,
    );
  });

  it('describes a tool without arguments', () => {
    expect(expectedArguments({ type: 'object' })).toBe('no arguments');
    expect(
      checker().check.check(
        { name: 'ping', server: 's', inputSchema: { type: 'object', properties: {}, additionalProperties: false } },
        { x: 1 },
      ),
    ).toContain('It takes: no arguments.');
  });
});

describe('the argument check is not stricter than the server', () => {
  const screenshot = {
    name: 'browser_take_screenshot',
    server: 'playwright',
    inputSchema: {
      type: 'object',
      properties: {
        scale: { type: 'string', enum: ['css', 'device'], default: 'css' },
        mode: { $ref: '#/$defs/Mode' },
        legacy: { allOf: [{ $ref: '#/$defs/Mode' }], default: 'slow' },
        options: { $ref: '#/$defs/Options' },
        file: { type: 'string' },
      },
      required: ['scale', 'mode', 'legacy', 'file'],
      $defs: {
        Mode: { type: 'string', enum: ['fast', 'slow'], default: 'fast' },
        Options: {
          type: 'object',
          properties: { quality: { type: 'integer', default: 80 }, path: { type: 'string' } },
          required: ['quality', 'path'],
        },
      },
    },
  };

  it('lets out a required field that has a default (own, behind a $ref, or nested in a definition)', () => {
    const { check } = checker();
    const args = { file: 'a.png', options: { path: '/tmp' } };
    expect(check.check(screenshot, args)).toBeUndefined();
    // The arguments themselves are not filled in: the server applies its own defaults.
    expect(args).toEqual({ file: 'a.png', options: { path: '/tmp' } });
    expect(screenshot.inputSchema.required).toEqual(['scale', 'mode', 'legacy', 'file']);
  });

  it('still refuses a required field without a default, and a wrong value of one with a default', () => {
    const { check } = checker();
    const missing = check.check(screenshot, { options: { quality: 90 } }) as string;
    expect(missing).toContain('- missing required argument "file" (string)');
    expect(missing).toContain('- missing required argument "options.path"');
    expect(missing).not.toContain('"scale"');
    const wrong = check.check(screenshot, { file: 'a', mode: 'warp' }) as string;
    expect(wrong).toContain('"mode" must be one of "fast", "slow", not "warp"');
  });

  it('says what an argument defined by a $ref takes, instead of "any"', () => {
    const text = checker().check.check(screenshot, { file: 3 }) as string;
    expect(text).toContain(
      'It takes: scale (one of "css", "device"), mode (one of "fast", "slow"), legacy (one of "fast", "slow"), options (object), file (string, required).',
    );
    expect(text).not.toMatch(/mode \(any/);
  });
});

describe('the arguments a refused call lists', () => {
  // An OpenAPI 3.0 `nullable` property becomes a type list: said as the error line says it, not "字符串,null".
  it('name a property of several types with "or", in Chinese and English', () => {
    const schema = { type: 'object', properties: { nickname: { type: ['string', 'null'] } } };
    expect(expectedArguments(schema, 'zh-CN')).toBe('nickname（字符串或null）');
    expect(expectedArguments(schema, 'en')).toBe('nickname (string or null)');
  });
});
