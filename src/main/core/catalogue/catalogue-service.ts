import fs from 'node:fs';
import path from 'node:path';

import { z } from 'zod';

import { type Catalogue, type CatalogueEntry, CatalogueEntrySchema } from '../../../shared/catalogue';
import { type Problem, problem } from '../../../shared/problem';
import type { Logger } from '../logs/log-book';
import { failureText } from '../problems/failure-cause';
import { fetchRegistry } from './registry-catalogue';
import { registryProblem } from './registry-problem';
import { shippedCatalogue } from './shipped-catalogue';

export const OFFICIAL_REGISTRY = 'https://registry.modelcontextprotocol.io';
const STALE_MS = 24 * 60 * 60_000;
const CACHE_FILE = 'registry-catalogue.json';

const CacheSchema = z.object({ fetchedAt: z.number(), registry: z.string(), entries: z.array(CatalogueEntrySchema) });

export interface CatalogueServiceOptions {
  log: Logger;
  /** Where the registry's list is kept between runs; none: kept in memory only. */
  cacheDir?: string;
  registryUrl?: string;
  maxPages?: number;
  timeoutMs?: number;
}

/**
 * The catalogue a user picks servers from: the shipped list, plus what the MCP registry listed the
 * last time it was read (cached on disk). The shipped list always wins for a server it knows.
 */
export class CatalogueService {
  // Both read at the first get(): a bridge that serves xiaozhi and never shows the catalogue keeps
  // neither in memory (the registry's cache can hold thousands of entries).
  private shippedEntries: CatalogueEntry[] | undefined;
  private cache: z.infer<typeof CacheSchema> | undefined;
  private cacheRead = false;
  private refreshError: string | undefined;
  private refreshProblem: Problem | undefined;
  private saidUnreachable = false;
  private refreshing: Promise<void> | undefined;
  private readonly registryUrl: string;

  constructor(private readonly options: CatalogueServiceOptions) {
    this.registryUrl = options.registryUrl ?? OFFICIAL_REGISTRY;
  }

  private get shipped(): CatalogueEntry[] {
    return (this.shippedEntries ??= shippedCatalogue());
  }

  async get(refresh: 'never' | 'ifStale' | 'now' = 'never'): Promise<Catalogue> {
    if (!this.cacheRead) {
      this.cacheRead = true;
      this.cache = this.readCache();
    }
    const stale = !this.cache || Date.now() - this.cache.fetchedAt > STALE_MS;
    if (refresh === 'now' || (refresh === 'ifStale' && stale)) await this.refresh();
    return this.snapshot();
  }

  private snapshot(): Catalogue {
    const known = new Set(this.shipped.map(identity));
    const fromRegistry = (this.cache?.entries ?? []).filter((e) => !known.has(identity(e)));
    return {
      entries: [...this.shipped, ...fromRegistry],
      ...(this.cache ? { refreshedAt: this.cache.fetchedAt } : {}),
      ...(this.refreshError ? { refreshError: this.refreshError } : {}),
      ...(this.refreshProblem ? { refreshProblem: this.refreshProblem } : {}),
    };
  }

  private refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        const entries = await fetchRegistry({
          baseUrl: this.registryUrl,
          maxPages: this.options.maxPages ?? 30,
          timeoutMs: this.options.timeoutMs ?? 15_000,
        });
        this.cache = { fetchedAt: Date.now(), registry: this.registryUrl, entries };
        this.refreshError = undefined;
        this.refreshProblem = undefined;
        this.saidUnreachable = false;
        this.writeCache();
        this.options.log.info(`catalogue: ${entries.length} runnable servers read from the MCP registry`);
      } catch (error) {
        this.refreshError = failureText(error);
        this.refreshProblem = registryProblem(error);
        // Said once at warn: offline (or where the registry is blocked) every opening of the catalogue would repeat it.
        const level = this.saidUnreachable ? 'debug' : 'warn';
        this.saidUnreachable = true;
        this.options.log[level](
          `catalogue: could not read the MCP registry (${this.refreshError}); using the ${this.cache ? 'cached and ' : ''}shipped list`,
          problem('log.registryUnreadable', { error: this.refreshError, reason: this.cache ? 'cached' : 'shipped' }),
          this.refreshProblem,
        );
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  private cachePath(): string | undefined {
    return this.options.cacheDir ? path.join(this.options.cacheDir, CACHE_FILE) : undefined;
  }

  private readCache(): z.infer<typeof CacheSchema> | undefined {
    const file = this.cachePath();
    if (!file || !fs.existsSync(file)) return undefined;
    try {
      const parsed = CacheSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
      // A cache of another registry (the URL was changed) is not this one's.
      return parsed.success && parsed.data.registry === this.registryUrl ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  private writeCache(): void {
    const file = this.cachePath();
    if (!file || !this.cache) return;
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const temp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temp, JSON.stringify(this.cache));
      fs.renameSync(temp, file);
    } catch (error) {
      this.options.log.warn(`catalogue: could not keep the registry's list (${failureText(error)})`);
    }
  }
}

/** What makes two entries the same server: the package they run, or the remote URL. */
function identity(entry: CatalogueEntry): string {
  if (entry.run.transport !== 'stdio') return `url:${entry.run.url.replace(/\/+$/, '').toLowerCase()}`;
  const pkg = entry.run.args.find((a) => !a.startsWith('-')) ?? entry.run.command;
  return `pkg:${entry.run.command}:${pkg
    .replace(/(?<=.)@[^/@]*$/, '')
    .replace(/==.*$/, '')
    .toLowerCase()}`;
}

/** Where a headless bridge keeps caches: the platform's cache folder, under xiaozhi-tray. */
export function defaultCacheDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home = env.HOME ?? env.USERPROFILE ?? '.',
): string {
  if (platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'xiaozhi-tray', 'Cache');
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'xiaozhi-tray');
  // As the XDG spec says: an empty or relative XDG_CACHE_HOME is ignored (else the cache, runtimes
  // included, lands in whatever folder the bridge was started from).
  const xdg = env.XDG_CACHE_HOME;
  return path.join(xdg && path.posix.isAbsolute(xdg) ? xdg : path.join(home, '.cache'), 'xiaozhi-tray');
}
