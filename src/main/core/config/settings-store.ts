import fs from 'node:fs';

import { type Settings, SettingsSchema } from '../../../shared/settings';
import { holdsSecrets } from '../secrets/bridge-secrets';
import { type AtomicWrite, removeOrphanedTempFiles, startAtomicWrite, type WriteOptions } from '../system/atomic-write';
import { configFileText } from './config-file-writer';

/** Where settings live: electron-store in the app, a file for the CLI, memory in tests. */
export interface SettingsStore {
  load(): Settings;
  save(settings: Settings): void;
  /** Resolves once every save is on disk; rejects with the error of the last one when it never got there. */
  settled?(): Promise<void>;
  /** Set when changes cannot be saved: the config file belongs to another program. */
  readonly readOnly?: { file: string; format: string };
}

export class MemorySettingsStore implements SettingsStore {
  private settings: Settings;
  readonly readOnly?: { file: string; format: string };

  constructor(settings: Settings, readOnly?: { file: string; format: string }) {
    this.settings = SettingsSchema.parse(settings);
    if (readOnly !== undefined) this.readOnly = readOnly;
  }

  load(): Settings {
    return structuredClone(this.settings);
  }

  save(settings: Settings): void {
    this.settings = structuredClone(settings);
  }
}

/**
 * The endpoint `MCP_ENDPOINT` adds for one run: served, never written to the file (it would put the
 * token of the environment into a config the user may share).
 */
export const ENV_ENDPOINT_ID = 'env-mcp-endpoint';

/**
 * Our own settings format in a JSON file (the headless CLI's native config). A save is written at
 * once, synchronously, and fails at once (the settings are then not changed); only a rename Windows
 * refuses for a moment is retried in the background, the latest save superseding one still retried.
 */
export class FileSettingsStore implements SettingsStore {
  private settings: Settings;
  /** The file as we last read or wrote it: anything else there was changed by someone else. */
  private lastText: string | undefined;
  /** A save whose rename is being retried, and what it writes. */
  private pending: { write: AtomicWrite; text: string } | undefined;
  /** Why the last save never reached the file, when it did not. */
  private lastFailure: unknown;

  constructor(
    private readonly file: string,
    initial: Settings,
    private readonly options: {
      /** Told when the file was changed by another program since we read it (its text was kept in `backup`). */
      onExternalChange?: (backup: string) => void;
      /** Told when a save that holds secrets made the file 0600, with the mode that let others read or write it. */
      onMadePrivate?: (previousMode: number) => void;
      /** Told when a save whose rename was retried never reached the file. */
      onSaveFailed?: (error: unknown) => void;
      rename?: WriteOptions['rename'];
    } = {},
  ) {
    this.settings = initial;
    removeOrphanedTempFiles(file);
    this.lastText = readText(file);
  }

  load(): Settings {
    return structuredClone(this.settings);
  }

  save(settings: Settings): void {
    const valid = SettingsSchema.parse(settings);
    const written = { ...valid, endpoints: valid.endpoints.filter((e) => e.id !== ENV_ENDPOINT_ID) };
    const current = readText(this.file);
    if (current !== undefined && this.lastText !== undefined && current !== this.lastText) {
      // Changed behind our back (an import from a terminal, an editor): keep that version whole.
      const backup = `${this.file}.${new Date().toISOString().replace(/[:.]/g, '-')}.bak`;
      fs.writeFileSync(backup, current, { mode: 0o600 });
      this.options.onExternalChange?.(backup);
    }
    const text = configFileText(written, current);
    // Endpoint tokens, API keys, the local server's token: other users of this computer must not read them.
    const write = startAtomicWrite(this.file, text, {
      private: holdsSecrets(written),
      ...(this.options.rename ? { rename: this.options.rename } : {}),
    });
    this.pending?.write.cancel();
    this.pending = undefined;
    this.lastFailure = undefined;
    if (write.tightened !== undefined) this.options.onMadePrivate?.(write.tightened);
    this.settings = structuredClone(valid);
    if (write.inPlace) {
      this.lastText = text;
      return;
    }
    const pending = { write, text };
    this.pending = pending;
    write.done.then(
      () => {
        if (this.pending !== pending) return;
        this.pending = undefined;
        this.lastText = text;
      },
      (error: unknown) => {
        if (this.pending !== pending) return;
        this.pending = undefined;
        this.lastFailure = error;
        this.options.onSaveFailed?.(error);
      },
    );
  }

  async settled(): Promise<void> {
    await this.pending?.write.done.catch(() => undefined);
    if (this.lastFailure !== undefined) throw this.lastFailure;
  }
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
