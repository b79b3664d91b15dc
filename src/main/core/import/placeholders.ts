import os from 'node:os';
import type { ServerSettings } from '../../../shared/settings';
import type { ImportInput } from '../../../shared/import';

const PLACEHOLDER = /\$\{(input:[^}]+|env:[^}]+|workspaceFolder|userHome)\}/g;

export interface InputDeclaration {
  description?: string;
  password?: boolean;
  default?: string;
}

/** Every string a server setting holds, with a way to rewrite it. */
function mapStrings(server: ServerSettings, fn: (s: string) => string): ServerSettings {
  const rec = (r: Record<string, string>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, fn(v)]));
  if (server.transport === 'stdio') {
    return { ...server, command: fn(server.command), args: server.args.map(fn), env: rec(server.env), ...(server.cwd !== undefined ? { cwd: fn(server.cwd) } : {}) };
  }
  return { ...server, url: fn(server.url), headers: rec(server.headers) };
}

export function placeholdersIn(server: ServerSettings): string[] {
  const found = new Set<string>();
  mapStrings(server, (s) => {
    for (const m of s.matchAll(PLACEHOLDER)) found.add(m[1] as string);
    return s;
  });
  return [...found];
}

/**
 * Resolves what can be resolved now (`${userHome}`, `${env:X}` when X is set) and turns the rest
 * into inputs the user is asked for (`${input:id}`, `${workspaceFolder}`, unset `${env:X}`).
 */
export function collectInputs(
  servers: ServerSettings[],
  declared: Record<string, InputDeclaration>,
  env: NodeJS.ProcessEnv,
): { servers: ServerSettings[]; inputs: ImportInput[]; needs: string[][] } {
  const inputs = new Map<string, ImportInput>();
  const needs: string[][] = [];
  const resolved = servers.map((server) => {
    const mine = new Set<string>();
    const out = mapStrings(server, (s) =>
      s.replace(PLACEHOLDER, (whole, name: string) => {
        if (name === 'userHome') return os.homedir();
        if (name.startsWith('env:')) {
          const value = env[name.slice(4)];
          if (value !== undefined) return value;
        }
        mine.add(name);
        if (!inputs.has(name)) {
          const declaration = name.startsWith('input:') ? declared[name.slice(6)] : undefined;
          const envName = name.startsWith('env:') ? name.slice(4) : undefined;
          inputs.set(name, {
            id: name,
            placeholder: whole,
            description:
              declaration?.description ??
              (envName ? `Environment variable ${envName} (not set on this machine)` : name === 'workspaceFolder' ? 'The folder to use as ${workspaceFolder}' : name.slice(6)),
            password: declaration?.password ?? (envName ? /key|token|secret|password/i.test(envName) : false),
            ...(declaration?.default !== undefined ? { defaultValue: declaration.default } : {}),
          });
        }
        return whole;
      }),
    );
    needs.push([...mine]);
    return out;
  });
  return { servers: resolved, inputs: [...inputs.values()], needs };
}

/** Puts the user's values in place of the placeholders. */
export function fillInputs(server: ServerSettings, values: Record<string, string>): ServerSettings {
  return mapStrings(server, (s) => s.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole));
}
