import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { z } from 'zod';

import { endpointIdentity } from '../../../shared/endpoint-url';
import { stateDirDistrust } from '../local-server/state-file';
import { isOwnProcess, startTimeOf } from '../servers/process-tree';
import { writeFileAtomic } from '../system/atomic-write';

/**
 * The copies of the app running with one state folder (the desktop app, `xiaozhi-tray run`), each
 * with the endpoints it serves: one small file per process in `<state>/running/`. A copy whose
 * connection the relay replaced can then name the other when it is ours ("xiaozhi-tray run --config
 * …, pid 4242"), and hear at once when that one leaves. Endpoints are kept as fingerprints (a hash
 * of the address and token), never as URLs: the token stays in the config alone.
 */
export const RUNNING_DIR = 'running';

const RunningCopySchema = z.object({
  pid: z.number().int().positive(),
  /** The process's start as the system counts it (Linux): a pid used again is another process. */
  started: z.string().optional(),
  kind: z.enum(['desktop', 'headless']),
  /** The config file a headless copy runs. */
  config: z.string().max(4096).optional(),
  endpoints: z.array(z.string().max(64)).max(1000),
});

export type RunningCopy = z.infer<typeof RunningCopySchema>;

/** A file much bigger than a copy writes is not one of ours. */
const MAX_FILE_BYTES = 64 * 1024;

/** An endpoint as the files name it: the same address and token give the same fingerprint, however written. */
export function endpointFingerprint(url: string): string {
  return createHash('sha256').update(endpointIdentity(url)).digest('hex').slice(0, 24);
}

export class RunningCopies {
  private readonly folder: string;
  private readonly file: string;
  private published: string | undefined;

  constructor(
    stateDir: string,
    private readonly self: { kind: RunningCopy['kind']; config?: string },
    private readonly pid = process.pid,
  ) {
    this.folder = path.join(stateDir, RUNNING_DIR);
    this.file = path.join(this.folder, `${pid}.json`);
  }

  /** Says which endpoints this copy serves now (enabled ones). Best effort: a folder we cannot write is no reason to stop. */
  async publish(urls: readonly string[]): Promise<void> {
    const copy: RunningCopy = {
      pid: this.pid,
      ...(startTimeOf(this.pid) !== undefined ? { started: startTimeOf(this.pid) } : {}),
      kind: this.self.kind,
      ...(this.self.config !== undefined ? { config: this.self.config } : {}),
      endpoints: [...new Set(urls.map(endpointFingerprint))],
    };
    const text = `${JSON.stringify(copy)}\n`;
    if (text === this.published) return;
    this.published = text;
    fs.mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    // Another user who could write here could pose as a copy of ours: the folder must be ours alone.
    if (stateDirDistrust(path.dirname(this.folder)) || stateDirDistrust(this.folder)) return;
    await writeFileAtomic(this.file, text, { private: true });
  }

  /** This copy leaves (it stops): its file goes. */
  withdraw(): void {
    this.published = undefined;
    fs.rmSync(this.file, { force: true });
  }

  /** The other copies running now (their files; those of processes that are gone are removed). */
  others(): RunningCopy[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.folder);
    } catch {
      return [];
    }
    if (stateDirDistrust(this.folder)) return [];
    const copies: RunningCopy[] = [];
    for (const name of names.slice(0, 256)) {
      if (!/^\d+\.json$/.test(name)) continue;
      const file = path.join(this.folder, name);
      const copy = readCopy(file);
      if (!copy || copy.pid === this.pid) continue;
      const alive = isOwnProcess(copy.pid) && (copy.started === undefined || startTimeOf(copy.pid) === copy.started);
      if (!alive) {
        fs.rmSync(file, { force: true });
        continue;
      }
      copies.push(copy);
    }
    return copies;
  }

  /** Another copy of ours serving this endpoint, if one runs. */
  holding(url: string): RunningCopy | undefined {
    const fingerprint = endpointFingerprint(url);
    return this.others().find((copy) => copy.endpoints.includes(fingerprint));
  }

  /**
   * Another copy of ours serving this endpoint that keeps it when both want it. Two copies that each
   * take the endpoint back once the relay forgets the other push each other out for ever; any fixed
   * order settles them, and the higher pid is one every copy sees alike.
   */
  outranking(url: string): RunningCopy | undefined {
    const fingerprint = endpointFingerprint(url);
    return this.others().find((copy) => copy.endpoints.includes(fingerprint) && copy.pid > this.pid);
  }
}

function readCopy(file: string): RunningCopy | undefined {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
    const parsed = RunningCopySchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
