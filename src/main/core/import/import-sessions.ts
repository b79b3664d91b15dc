import fs from 'node:fs';
import path from 'node:path';

import { type ImportChoices, ImportChoicesSchema, type ImportPreview } from '../../../shared/import';
import { nameRecord } from '../../../shared/own';
import type { Settings } from '../../../shared/settings';
import { ConfigError, formatProblem } from '../config/json-text';
import { checkConfigSize, readConfigText } from '../config/load-config';
import { isOwnEntry, OWN_ENTRY_SKIPPED } from '../config/own-entry';
import { type ParsedConfig, parseMcpConfig, withoutOwnEntries } from '../config/parse-config';
import { environmentValue, withEnvironmentOffers } from '../config/placeholders';
import { secretValues } from '../secrets/bridge-secrets';
import { applyImport, ImportError } from './apply-import';
import { buildPreview } from './import-preview';

const KEEP_MS = 30 * 60_000;

/**
 * Previews waiting for the user's decision. The full parsed config (secrets included) stays here;
 * the UI only ever sees the masked preview and answers by its id.
 */
export class ImportSessions {
  private readonly pending = new Map<string, { parsed: ParsedConfig; preview: ImportPreview; at: number }>();

  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  preview(source: string, text: string, current: Settings): ImportPreview {
    checkConfigSize(source, Buffer.byteLength(text));
    let parsed: ParsedConfig;
    try {
      parsed = withoutOwnEntries(parseMcpConfig(source, text), (server) => isOwnEntry(server, current.localServer.port), OWN_ENTRY_SKIPPED);
    } catch (error) {
      if (error instanceof ConfigError)
        throw new ImportError(`${path.basename(source)}: ${error.problems.map(formatProblem).join('; ')}`, error.problems);
      throw error;
    }
    // What the environment holds for each ${env:…} is offered masked, for the user to confirm.
    parsed = { ...parsed, inputs: withEnvironmentOffers(parsed.inputs, this.env, secretValues(current, this.env)) };
    const preview = buildPreview(path.basename(source), parsed, current);
    this.prune();
    this.pending.set(preview.id, { parsed, preview, at: Date.now() });
    return preview;
  }

  previewFile(file: string, current: Settings): ImportPreview {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      throw new ImportError(`${file} does not exist or cannot be read.`);
    }
    // A pipe would block the whole bridge in open() until someone writes to it; a device never ends.
    if (!stat.isFile()) throw new ImportError(`${file} is not a regular file.`);
    checkConfigSize(file, stat.size);
    return this.preview(file, readConfigText(file), current);
  }

  apply(choices: ImportChoices, current: Settings): ReturnType<typeof applyImport> {
    const session = this.pending.get(choices.id);
    if (!session) throw new ImportError('This import preview has expired; drop the file again.');
    const given = ImportChoicesSchema.parse(choices);
    // A value the user typed wins over the environment's.
    const typed = Object.fromEntries(Object.entries(given.inputs).filter(([, value]) => value.trim() !== ''));
    const inputs = { ...this.fromEnvironment(given.fromEnvironment, session.preview, current), ...typed };
    const applied = applyImport(current, session.parsed, session.preview, { ...given, inputs });
    this.pending.delete(choices.id);
    return applied;
  }

  /** The values of the `${env:…}` inputs the user confirmed; never one of our own secrets. */
  private fromEnvironment(ids: readonly string[], preview: ImportPreview, current: Settings): Record<string, string> {
    const known = secretValues(current, this.env);
    const values = nameRecord<string>();
    for (const id of ids) {
      const name = id.slice(4);
      if (!id.startsWith('env:') || !preview.inputs.some((input) => input.id === id))
        throw new ImportError(`This file asks for no environment variable "${id}".`);
      const offer = environmentValue(id, this.env, known);
      if (offer === 'own')
        throw new ImportError(
          `${name} is one of Xiaozhi Tray's own secrets (or holds one), which are never passed to a server from the environment; type the value if this server really needs it.`,
        );
      if (offer === undefined) throw new ImportError(`${name} is not set in this environment; type its value instead.`);
      values[id] = offer.value;
    }
    return values;
  }

  private prune(): void {
    const now = Date.now();
    for (const [id, session] of this.pending) if (now - session.at > KEEP_MS) this.pending.delete(id);
  }
}
