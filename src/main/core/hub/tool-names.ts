import { createHash } from 'node:crypto';

import type { ServerSettings } from '../../../shared/settings';

/** What function-calling APIs accept, and so what xiaozhi can hand its LLM. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX = 64;

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/** Replaces what the pattern forbids with `_`; long names keep a hash so they stay distinct. */
export function sanitizeToolName(raw: string): string {
  let name = raw.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (name.length === 0 || /^_+$/.test(name)) name = `tool_${shortHash(raw)}`;
  if (name.length > MAX) name = `${name.slice(0, MAX - 9)}_${shortHash(raw)}`;
  return name;
}

/**
 * A server's name as a tool name prefix: its letters and digits, runs of anything else as one `_`.
 * A name with none of them (天气) gets a short stable code instead of a row of underscores.
 */
export function serverPrefix(server: string, program?: string): string {
  const ascii = asciiPart(server);
  if (ascii.length > 0) return ascii;
  const fromProgram = program === undefined ? '' : asciiPart(program);
  return fromProgram.length > 0 ? fromProgram : `s${shortHash(server).slice(0, 6)}`;
}

const asciiPart = (text: string) => text.replace(/[^a-zA-Z0-9_-]+/g, '_').replace(/^[_-]+|[_-]+$/g, '');

/**
 * A readable word for what a server runs, for a name with no letter a tool name may carry (记忆):
 * its package without scope, version or the usual "server"/"mcp" words (`@modelcontextprotocol/server-memory`
 * → memory), a remote server's host (`mcp.amap.com` → amap), a web service's platform.
 */
export function programWord(server: ServerSettings): string | undefined {
  if (server.transport === 'stdio') {
    const arg = server.args.find((a) => !a.startsWith('-') && /[a-zA-Z]/.test(a));
    const raw = arg ?? server.command;
    const last = raw.split(/[\\/]/).filter(Boolean).at(-1) ?? raw;
    const word = last
      .replace(/(?<=.)@.*$/, '')
      .replace(/\.(exe|cmd|bat|js|mjs|cjs|py)$/i, '')
      .replace(/^(mcp[-_]server[-_]|server[-_]|mcp[-_])/i, '')
      .replace(/([-_]mcp[-_]server|[-_]server|[-_]mcp)$/i, '');
    return word || undefined;
  }
  if ('url' in server && typeof server.url === 'string') {
    try {
      const labels = new URL(server.url).hostname.split('.').filter((l) => !/^(www|api|mcp|com|cn|net|org|io|dev|me|app)$/i.test(l));
      return labels[0];
    } catch {
      return undefined;
    }
  }
  return server.transport;
}

/** Each server's program word, by server name. */
export function programWords(servers: readonly ServerSettings[]): Map<string, string> {
  const words = new Map<string, string>();
  for (const server of servers) {
    const word = programWord(server);
    if (word !== undefined) words.set(server.name, word);
  }
  return words;
}

export interface ToolRef {
  server: string;
  tool: string;
}

const key = (ref: ToolRef) => `${ref.server}\u0000${ref.tool}`;

/**
 * Gives every tool an exposed name. A tool keeps its own (sanitised) name when that is unique;
 * names that collide are prefixed with their server. The result depends only on the set of tools,
 * never on the order servers started in, so names are stable across restarts.
 */
export function assignExposedNames(
  refs: ToolRef[],
  alwaysPrefix: boolean,
  /** What each server runs, in a word (for a name with no letter a tool name may carry). */
  programs: ReadonlyMap<string, string> = new Map(),
): Map<string, string> {
  const prefixed = (ref: ToolRef) => sanitizeToolName(`${serverPrefix(ref.server, programs.get(ref.server))}_${ref.tool}`);
  const firstChoice = new Map<string, string>();
  const counts = new Map<string, number>();
  for (const ref of refs) {
    const base = sanitizeToolName(ref.tool);
    firstChoice.set(key(ref), base);
    counts.set(base, (counts.get(base) ?? 0) + 1);
  }
  const names = new Map<string, string>();
  for (const ref of refs) {
    const base = firstChoice.get(key(ref)) as string;
    names.set(key(ref), alwaysPrefix || (counts.get(base) ?? 0) > 1 ? prefixed(ref) : base);
  }
  // Rare leftovers (a prefixed name equal to another tool's own name, sanitising collisions):
  // every member of a clash gets a hash of its identity, which again ignores order.
  const byName = new Map<string, ToolRef[]>();
  for (const ref of refs) {
    const name = names.get(key(ref)) as string;
    const clash = byName.get(name);
    if (clash) clash.push(ref);
    else byName.set(name, [ref]);
  }
  for (const [name, clash] of byName) {
    if (clash.length < 2) continue;
    for (const ref of clash) names.set(key(ref), `${name.slice(0, MAX - 9)}_${shortHash(key(ref))}`);
  }
  return names;
}

export function toolKey(server: string, tool: string): string {
  return key({ server, tool });
}
