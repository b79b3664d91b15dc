import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { findNodeAtLocation, type Node, parseTree } from 'jsonc-parser';

import { isRecord } from '../../../shared/is-record';
import type { AddToClient, AddToClientPreview } from '../../../shared/tool-set-api';
import { ConfigError, formatProblem, JsonDocument } from '../config/json-text';
import { MAX_CONFIG_BYTES } from '../config/load-config';
import { maskSecret } from '../logs/redact';
import { octalMode, othersMode, writeFileAtomic } from '../system/atomic-write';
import { cherryStudioLink, ENTRY_NAME, serversKey } from './client-entries';

export class AddToClientError extends Error {}

/** What writing our entry into a client's file would do; `text` is the whole new file. */
export interface FilePlan {
  action: AddToClientPreview['action'];
  exists: boolean;
  otherServers: string[];
  text: string;
}

/** The file's own indentation unit, so our edit looks like the rest of it. */
function indentUnit(text: string): string {
  const match = /\n([ \t]+)\S/.exec(text);
  if (!match) return '  ';
  const indent = match[1] as string;
  return indent.startsWith('\t') ? '\t' : indent;
}

/** The whitespace that starts the line `offset` is on. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
}

interface Style {
  unit: string;
  eol: string;
}

/** `value` pretty-printed for a place whose line starts with `indent`. */
const pretty = (value: unknown, indent: string, style: Style) =>
  JSON.stringify(value, null, style.unit).split('\n').join(`${style.eol}${indent}`);

/** A comment that ends the line after `offset` (`"a": 1 // note`): it belongs to what is before it. */
const TRAILING_COMMENT = /^[ \t]*(?:\/\/[^\r\n]*|\/\*(?:(?!\*\/)[^\r\n])*\*\/[ \t]*)(?=\r?\n)/;

/**
 * `"key": value` added as the last property of an object, each other byte of the file untouched
 * (jsonc-parser's own formatter would re-indent the neighbours), comments included.
 */
function insertProperty(text: string, object: Node, key: string, value: unknown, style: Style): string {
  const last = object.children?.at(-1);
  const close = object.offset + object.length - 1;
  if (!last) {
    const outer = lineIndent(text, object.offset);
    const inner = outer + style.unit;
    const property = `${style.eol}${inner}${JSON.stringify(key)}: ${pretty(value, inner, style)}`;
    const inside = text.slice(object.offset + 1, close);
    // An empty object may still hold comments ("// add your servers here"): they stay, after ours.
    if (inside.trim() !== '') return `${text.slice(0, object.offset + 1)}${property}${inside}${text.slice(close)}`;
    return `${text.slice(0, object.offset + 1)}${property}${style.eol}${outer}${text.slice(close)}`;
  }
  const indent = lineIndent(text, last.offset);
  const end = last.offset + last.length;
  const comment = TRAILING_COMMENT.exec(text.slice(end))?.[0] ?? '';
  const after = end + comment.length;
  return `${text.slice(0, end)},${comment}${style.eol}${indent}${JSON.stringify(key)}: ${pretty(value, indent, style)}${text.slice(after)}`;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Our entry put into a client's config text (JSON with comments allowed, as VS Code writes it),
 * changing nothing else: other servers, settings, comments and formatting stay as they were. A file
 * that is not valid JSON is refused, never overwritten.
 */
export function planFileEdit(client: AddToClient, file: string, current: string | undefined, entry: Record<string, unknown>): FilePlan {
  const key = serversKey(client);
  if (current === undefined || current.trim() === '') {
    return {
      action: 'add',
      exists: current !== undefined,
      otherServers: [],
      text: `${JSON.stringify({ [key]: { [ENTRY_NAME]: entry } }, null, 2)}\n`,
    };
  }
  // A byte-order mark stays where it was; positions are found in the text after it.
  const bom = current.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  const body = current.slice(bom.length);
  let root: unknown;
  try {
    root = JsonDocument.parse(file, body).value;
  } catch (error) {
    if (error instanceof ConfigError)
      throw new AddToClientError(
        `${file}: ${formatProblem(error.problems[0] ?? { path: '', message: 'invalid JSON' })}; fix it first. Nothing was written.`,
      );
    throw error;
  }
  const tree = parseTree(body, [], { allowTrailingComma: true, disallowComments: false });
  if (!tree || !isRecord(root)) throw new AddToClientError(`${file} does not hold a JSON object; nothing was written.`);
  const servers = root[key];
  if (servers !== undefined && !isRecord(servers))
    throw new AddToClientError(`"${key}" in ${file} is not an object of servers; nothing was written.`);
  const existing = servers?.[ENTRY_NAME];
  const otherServers = Object.keys(servers ?? {}).filter((name) => name !== ENTRY_NAME);
  if (existing !== undefined && sameJson(existing, entry)) return { action: 'unchanged', exists: true, otherServers, text: current };
  const style = { unit: indentUnit(body), eol: body.includes('\r\n') ? '\r\n' : '\n' };
  const serversNode = findNodeAtLocation(tree, [key]);
  const ours = findNodeAtLocation(tree, [key, ENTRY_NAME]);
  let text: string;
  if (ours) {
    const indent = lineIndent(body, ours.parent?.offset ?? ours.offset);
    text = `${body.slice(0, ours.offset)}${pretty(entry, indent, style)}${body.slice(ours.offset + ours.length)}`;
  } else if (serversNode) text = insertProperty(body, serversNode, ENTRY_NAME, entry, style);
  else text = insertProperty(body, tree, key, { [ENTRY_NAME]: entry }, style);
  return { action: ours ? 'replace' : 'add', exists: true, otherServers, text: bom + text };
}

/**
 * Where writing `file` lands: itself, or what its links point to, a dangling link's target too
 * (a client's config kept in a dotfiles folder). The link itself is never replaced by a file.
 */
function writeTarget(file: string): string {
  let target = file;
  for (let hops = 0; hops < 40; hops++) {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(target);
    } catch {
      break;
    }
    if (!stat.isSymbolicLink()) return target;
    target = path.resolve(path.dirname(target), fs.readlinkSync(target));
  }
  if (target !== file && !fs.existsSync(path.dirname(target)))
    throw new AddToClientError(`${file} is a link to ${target}, whose folder does not exist; nothing was written.`);
  return target;
}

function readIfThere(file: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return undefined;
  }
  if (!stat.isFile()) throw new AddToClientError(`${file} is not a file; nothing was written.`);
  if (stat.size > MAX_CONFIG_BYTES) throw new AddToClientError(`${file} is too large to be a config file; nothing was written.`);
  return fs.readFileSync(file, 'utf8');
}

function existingMode(file: string): number | undefined {
  try {
    return fs.statSync(file).mode & 0o7777;
  } catch {
    return undefined;
  }
}

/** The entry as the window shows it: the token masked wherever it appears. */
function shownEntry(entry: Record<string, unknown>, token: string): string {
  return JSON.stringify(entry, null, 2).split(token).join(maskSecret(token));
}

export interface PendingAddTo {
  client: AddToClient;
  path: string | undefined;
  toolSet: string;
  at: number;
}

const KEEP_MS = 30 * 60_000;

/**
 * "Add to …": a preview first (which file, add or replace, what the entry says), then the write
 * when the user confirms. The file is read again at that moment, so edits made in between are kept.
 */
export class AddToClientSessions {
  private readonly pending = new Map<string, PendingAddTo>();

  preview(input: {
    client: AddToClient;
    path: string | undefined;
    entry: Record<string, unknown>;
    token: string;
    toolSet: string;
    turnsServerOn: boolean;
  }): AddToClientPreview {
    const id = randomUUID();
    const base = {
      id,
      client: input.client,
      entryName: ENTRY_NAME,
      entry: shownEntry(input.entry, input.token),
      toolSet: input.toolSet,
      turnsServerOn: input.turnsServerOn,
    };
    let preview: AddToClientPreview;
    if (input.path === undefined) {
      const copyText = `${JSON.stringify({ mcpServers: { [ENTRY_NAME]: input.entry } }, null, 2)}\n`;
      preview = { ...base, exists: false, action: 'add', otherServers: [], link: cherryStudioLink(input.entry), copyText };
    } else {
      const target = writeTarget(input.path);
      const plan = planFileEdit(input.client, input.path, readIfThere(target), input.entry);
      const mode = existingMode(target);
      // Claude Desktop's entry holds no token (connect finds it): nothing of ours to keep from others.
      const open = mode !== undefined && othersMode(target) !== 0 && JSON.stringify(input.entry).includes(input.token);
      preview = {
        ...base,
        path: input.path,
        exists: plan.exists,
        action: plan.action,
        otherServers: plan.otherServers,
        ...(open ? { openToOthers: octalMode(mode) } : {}),
      };
    }
    this.prune();
    this.pending.set(id, { client: input.client, path: input.path, toolSet: input.toolSet, at: Date.now() });
    return preview;
  }

  /** The previewed choice; throws when the preview expired. */
  take(id: string): PendingAddTo {
    const pending = this.pending.get(id);
    if (!pending) throw new AddToClientError('This preview has expired; choose "Add to …" again.');
    this.pending.delete(id);
    return pending;
  }

  /**
   * Writes the entry into the file as it is now, atomically. A new file is the user's alone; one
   * that was there keeps the mode its owner gave it, unless `makePrivate` (the user's choice in the
   * preview) makes it 0600.
   */
  static async write(pending: PendingAddTo, entry: Record<string, unknown>, makePrivate = false): Promise<string> {
    const file = pending.path as string;
    const target = writeTarget(file);
    const plan = planFileEdit(pending.client, file, readIfThere(target), entry);
    if (plan.action === 'unchanged') {
      if (makePrivate && process.platform !== 'win32') fs.chmodSync(target, 0o600);
      return file;
    }
    const mode = existingMode(target);
    await writeFileAtomic(target, plan.text, { private: makePrivate });
    if (mode !== undefined && !makePrivate) fs.chmodSync(target, mode);
    return file;
  }

  private prune(): void {
    const now = Date.now();
    for (const [id, p] of this.pending) if (now - p.at > KEEP_MS) this.pending.delete(id);
  }
}
