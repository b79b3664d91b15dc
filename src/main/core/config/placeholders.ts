import os from 'node:os';

import { formatKeyPath, type KeyPath } from '../../../shared/forbidden-keys';
import type { ImportInput } from '../../../shared/import';
import { own } from '../../../shared/own';
import { isMcpServer, type ServerSettings } from '../../../shared/settings';
import { maskSecret } from '../logs/redact';

const PLACEHOLDER = /\$\{(input:[^}]+|env:[^}]+|workspaceFolder|userHome)\}/g;

export interface InputDeclaration {
  description?: string;
  password?: boolean;
  default?: string;
}

/** One `${…}` of a server's settings: the input it needs and the field it stands in (`['headers', 'X-Trace']`). */
export interface PlaceholderUse {
  id: string;
  field: KeyPath;
}

/** Every string a server setting holds, with its field, and a way to rewrite it. */
function mapStrings(server: ServerSettings, fn: (s: string, field: KeyPath) => string): ServerSettings {
  const rec = (name: string, r: Record<string, string>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, fn(v, [name, k])]));
  if (server.transport === 'stdio') {
    return {
      ...server,
      command: fn(server.command, ['command']),
      args: server.args.map((arg, i) => fn(arg, ['args', i])),
      env: rec('env', server.env),
      ...(server.cwd !== undefined ? { cwd: fn(server.cwd, ['cwd']) } : {}),
    };
  }
  // A web service's strings are its own (a template's `{arg}` is no placeholder): left as they are.
  if (!isMcpServer(server)) return server;
  return { ...server, url: fn(server.url, ['url']), headers: rec('headers', server.headers) };
}

/** Where each `${…}` of a server stands (`${userHome}` included). */
export function placeholderUses(server: ServerSettings): PlaceholderUse[] {
  const uses: PlaceholderUse[] = [];
  mapStrings(server, (s, field) => {
    for (const m of s.matchAll(PLACEHOLDER)) uses.push({ id: m[1] as string, field });
    return s;
  });
  return uses;
}

/**
 * What a placeholder asks for when its file says nothing of it, by its kind. Each kind the pattern knows
 * is named here: a fallback that cut a prefix off any name described `${userHome}` as "me".
 */
export function describePlaceholder(name: string): string {
  if (name.startsWith('input:')) return name.slice('input:'.length);
  if (name.startsWith('env:')) return `Environment variable ${name.slice('env:'.length)}`;
  if (name === 'workspaceFolder') return 'The folder to use as ${workspaceFolder}';
  if (name === 'userHome') return 'Your home folder (${userHome})';
  return name;
}

/**
 * Fills `${userHome}` and turns every other placeholder into an input the user gives: `${input:id}`,
 * `${workspaceFolder}`, and `${env:X}` too. A file from elsewhere decides where a value goes (a URL,
 * a header), so the bridge's own environment is never read into it unasked: the session offers what
 * the environment holds, masked, for the user to confirm (`withEnvironmentOffers`).
 */
export function collectInputs(
  servers: ServerSettings[],
  declared: Record<string, InputDeclaration>,
): { servers: ServerSettings[]; inputs: ImportInput[]; needs: string[][]; uses: PlaceholderUse[][] } {
  const inputs = new Map<string, ImportInput>();
  const needs: string[][] = [];
  const uses: PlaceholderUse[][] = [];
  const resolved = servers.map((server) => {
    const mine = new Set<string>();
    const found: PlaceholderUse[] = [];
    const out = mapStrings(server, (s, field) =>
      s.replace(PLACEHOLDER, (whole, name: string) => {
        if (name === 'userHome') return os.homedir();
        mine.add(name);
        found.push({ id: name, field });
        const where = `${server.name}: ${formatKeyPath(field)}`;
        const known = inputs.get(name);
        if (known) {
          if (!known.where.includes(where)) known.where.push(where);
          return whole;
        }
        const declaration = name.startsWith('input:') ? own(declared, name.slice(6)) : undefined;
        const envName = name.startsWith('env:') ? name.slice(4) : undefined;
        inputs.set(name, {
          id: name,
          placeholder: whole,
          description: declaration?.description ?? describePlaceholder(name),
          password: declaration?.password ?? (envName ? /key|token|secret|password/i.test(envName) : false),
          ...(declaration?.default !== undefined ? { defaultValue: declaration.default } : {}),
          where: [where],
        });
        return whole;
      }),
    );
    needs.push([...mine]);
    uses.push(found);
    return out;
  });
  return { servers: resolved, inputs: [...inputs.values()], needs, uses };
}

/** Puts the user's values in place of the placeholders. */
export function fillInputs(server: ServerSettings, values: Record<string, string>): ServerSettings {
  return mapStrings(server, (s) => s.replace(PLACEHOLDER, (whole, name: string) => own(values, name) ?? whole));
}

/**
 * Xiaozhi Tray's own secrets in its environment (the endpoint, the local server's token, the
 * ModelScope key): never handed to a server through `${env:…}`, whatever a file asks.
 */
export function isOwnEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  return upper === 'MCP_ENDPOINT' || upper === 'MODELSCOPE_API_TOKEN' || upper.startsWith('XIAOZHI_TRAY_');
}

/**
 * What the environment holds for an `${env:NAME}` input: its value; `own` when NAME is one of ours or
 * the value carries a secret the config already knows (an endpoint token, a key); undefined if unset.
 */
export function environmentValue(
  id: string,
  env: NodeJS.ProcessEnv,
  knownSecrets: readonly string[],
): { value: string } | 'own' | undefined {
  if (!id.startsWith('env:')) return undefined;
  const name = id.slice(4);
  if (isOwnEnvName(name)) return 'own';
  // Own variables only: `constructor`, `__proto__` or `toString` are properties of every object, no variable.
  const value = Object.hasOwn(env, name) ? env[name] : undefined;
  if (typeof value !== 'string') return undefined;
  return knownSecrets.some((secret) => value.includes(secret)) ? 'own' : { value };
}

/** The inputs with what the environment offers each `${env:…}`, masked; used only when the user confirms it. */
export function withEnvironmentOffers(inputs: ImportInput[], env: NodeJS.ProcessEnv, knownSecrets: readonly string[]): ImportInput[] {
  return inputs.map((input) => {
    const offer = environmentValue(input.id, env, knownSecrets);
    if (offer === undefined) return input;
    return offer === 'own' ? { ...input, ownSecret: true } : { ...input, fromEnvironment: maskSecret(offer.value) };
  });
}
