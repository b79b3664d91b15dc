import { type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';

import { FORBIDDEN_KEYS, formatKeyPath, type KeyPath } from '../../../shared/forbidden-keys';
import { own, setOwn } from '../../../shared/own';
import { type Problem, problem as aProblem } from '../../../shared/problem';

/** One thing wrong with a config file, said where it is. */
export interface ConfigProblem {
  /** JSON path like `servers[2].command`, or '' for the whole document. */
  path: string;
  line?: number;
  column?: number;
  message: string;
  /** What a JSON syntax error is, for a reader in another language (`config.invalidJson`, its `error` a jsonc-parser code). */
  problem?: Problem;
}

export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly problems: ConfigProblem[],
  ) {
    super(`${file}: ${problems.map(formatProblem).join('; ')}`);
  }
}

export function formatProblem(problem: ConfigProblem): string {
  const where = problem.line !== undefined ? `line ${problem.line}, column ${problem.column ?? 1}` : '';
  const path = problem.path ? problem.path : '';
  const location = [where, path].filter(Boolean).join(', at ');
  return location ? `${location}: ${problem.message}` : problem.message;
}

export type JsonPath = KeyPath;

export const formatPath = formatKeyPath;

function lineColumn(text: string, offset: number): { line: number; column: number } {
  return new LineIndex(text).at(offset);
}

/**
 * Where each line of a text starts, found once: a file of thousands of placeholders asks for a place
 * thousands of times, and counting the newlines from the start each time took a minute for 4 MB.
 */
class LineIndex {
  private readonly starts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  at(offset: number): { line: number; column: number } {
    const target = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.starts[middle] as number) <= target) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - (this.starts[low] as number) + 1 };
  }
}

/** An object's properties by key, made once per object node (jsonc-parser's lookup walks them every time). */
const keyedChildren = new WeakMap<Node, Map<string, Node>>();

/** The node at `path`, or undefined: the same answer as jsonc-parser's findNodeAtLocation, by key in one step. */
function nodeAt(root: Node, path: JsonPath): Node | undefined {
  let node: Node | undefined = root;
  for (const segment of path) {
    if (!node) return undefined;
    if (typeof segment === 'string') {
      if (node.type !== 'object') return undefined;
      let byKey = keyedChildren.get(node);
      if (!byKey) {
        byKey = new Map();
        for (const property of node.children ?? []) {
          const [key, value] = property.children ?? [];
          // The first of a key given twice, as jsonc-parser finds it.
          if (key && value && !byKey.has(String(key.value))) byKey.set(String(key.value), value);
        }
        keyedChildren.set(node, byKey);
      }
      node = byKey.get(segment);
    } else {
      node = node.type === 'array' ? node.children?.[segment] : undefined;
    }
  }
  return node;
}

/** A parsed JSON(C) document that can say where each value stands. */
export class JsonDocument {
  private constructor(
    readonly text: string,
    readonly value: unknown,
    private readonly tree: Node | undefined,
    /** Keys refused where they stood (`__proto__`, a key given twice), left out of `value`. */
    readonly refused: ConfigProblem[] = [],
  ) {}

  private lineIndex: LineIndex | undefined;

  private get lines(): LineIndex {
    return (this.lineIndex ??= new LineIndex(this.text));
  }

  /**
   * Parses JSON, tolerating what people paste from docs: comments, trailing commas, a UTF-8 BOM.
   * Throws a ConfigError with line and column for anything else.
   */
  static parse(file: string, raw: string, options: { keepRefused?: boolean } = {}): JsonDocument {
    const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    // Before the parser (which recurses): a config is never this deep, a hostile file may be.
    const tooDeep = offsetPastDepth(text, MAX_DEPTH);
    if (tooDeep !== undefined)
      throw new ConfigError(file, [
        { path: '', ...lineColumn(text, tooDeep), message: `the JSON is nested more than ${MAX_DEPTH} levels deep` },
      ]);
    const errors: ParseError[] = [];
    const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
    if (errors.length > 0 || tree === undefined) {
      // One error per place: the parser reports every bracket a cut-off file leaves open at the same
      // offset ("expected }", "expected ]", "expected }"), where the first says it all.
      const first = errors.filter((e, i) => errors.findIndex((o) => o.offset === e.offset) === i);
      const problems = (first.length > 0 ? first : [{ error: 0, offset: 0, length: 0 }]).slice(0, 20).map((e) => {
        const code = printParseErrorCode(e.error);
        return first.length > 0
          ? {
              path: '',
              ...lineColumn(text, e.offset),
              message: `invalid JSON: ${describeParseError(code)}`,
              problem: aProblem('config.invalidJson', { error: code }),
            }
          : { path: '', ...lineColumn(text, e.offset), message: 'the file is empty', problem: aProblem('config.empty') };
      });
      throw new ConfigError(file, problems);
    }
    const refused: ConfigProblem[] = [];
    let lines: LineIndex | undefined;
    const value = nodeValue(tree, [], (path, offset, message) =>
      refused.push({ path: formatPath(path), ...(lines ??= new LineIndex(text)).at(offset), message }),
    );
    // keepRefused: the caller reports them beside every other problem of the file, in one pass.
    if (refused.length > 0 && !options.keepRefused) throw new ConfigError(file, refused);
    return new JsonDocument(text, value, tree, refused);
  }

  /** The problem, placed at the line and column of `path` (or its nearest existing parent). */
  problemAt(path: JsonPath, message: string): ConfigProblem {
    let probe = path.slice();
    let node: Node | undefined;
    while (this.tree && !(node = nodeAt(this.tree, probe)) && probe.length > 0) probe = probe.slice(0, -1);
    const at = node ? this.lines.at(node.offset) : undefined;
    return { path: formatPath(path), ...(at ?? {}), message };
  }
}

/** Deeper than any config needs. */
const MAX_DEPTH = 64;

/** Where the brackets (outside strings) first nest deeper than `max`, or undefined. */
function offsetPastDepth(text: string, max: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return i;
    } else if (c === 125 || c === 93) depth--;
  }
  return undefined;
}

type Refuse = (path: JsonPath, offset: number, message: string) => void;

function nodeValue(node: Node, path: JsonPath, refuse: Refuse): unknown {
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const seen = new Set<string>();
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (!key || !value) continue;
        const name = String(key.value);
        // Assigning "__proto__" would set the prototype: a hidden object other keys are read through.
        if (FORBIDDEN_KEYS.has(name))
          refuse([...path, name], key.offset, `the key "${name}" is not allowed (it could change what other keys mean)`);
        else if (seen.has(name))
          refuse([...path, name], key.offset, `the key "${name}" appears twice in this object; only one can count, so remove the other`);
        else setOwn(out, name, nodeValue(value, [...path, name], refuse));
        seen.add(name);
      }
      return out;
    }
    case 'array':
      return (node.children ?? []).map((child, i) => nodeValue(child, [...path, i], refuse));
    default:
      return node.value;
  }
}

function describeParseError(code: string): string {
  const words: Record<string, string> = {
    InvalidSymbol: 'unexpected character',
    InvalidNumberFormat: 'invalid number',
    PropertyNameExpected: 'expected a property name in double quotes',
    ValueExpected: 'expected a value',
    ColonExpected: 'expected ":"',
    CommaExpected: 'expected "," (a comma may be missing)',
    CloseBraceExpected: 'expected "}"',
    CloseBracketExpected: 'expected "]"',
    EndOfFileExpected: 'unexpected text after the end of the document',
    UnexpectedEndOfString: 'a string is not closed',
    UnexpectedEndOfComment: 'a comment is not closed',
    UnexpectedEndOfNumber: 'a number is cut off',
    InvalidUnicode: 'invalid \\u escape',
    InvalidEscapeCharacter: 'invalid escape character',
    InvalidCharacter: 'invalid character in a string',
  };
  return own(words, code) ?? code;
}
