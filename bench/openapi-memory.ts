/**
 * How much memory reading a large OpenAPI document costs, and keeps once its chosen tools are built.
 * Run with `node bench/openapi-memory.mjs [FILE] [TAG]` (default: a generated document shaped as
 * GitHub's, 13 MB with 1,223 operations; GitHub's own is `generated/api.github.com.json` of the npm
 * package @octokit/openapi). Not part of npm test.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { LogBook } from '../src/main/core/logs/log-book';
import { openApiTools } from '../src/main/core/services/openapi';
import { ServiceHttp } from '../src/main/core/services/service-http';
import { translate } from '../src/shared/i18n/translate';
import { OpenApiSettingsSchema } from '../src/shared/settings';
import { githubLikeDocument } from '../test/helpers/stand-ins/openapi-stand-in';
import { heapMb, rssMb, settle } from './memory-probe';

const [given, tag = 'issues'] = process.argv.slice(2);

async function main(): Promise<void> {
  let file = given;
  if (!file) {
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'xt-openapi-bench-')), 'github-like.json');
    fs.writeFileSync(file, JSON.stringify(githubLikeDocument()));
  }
  const megabytes = fs.statSync(file).size / 1048576;
  await settle();
  const before = rssMb();
  const heapBefore = heapMb();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 10);
  const started = Date.now();
  const settings = OpenApiSettingsSchema.parse({ name: 'github', transport: 'openapi', spec: path.resolve(file), tags: [tag] });
  const tools = await openApiTools(settings, {
    http: new ServiceHttp('github'),
    timeoutMs: 60_000,
    log: new LogBook().logger('bench'),
    language: () => 'en',
    say: (key, params) => translate('en', key, params),
    leaveOut: () => undefined,
  });
  const ms = Date.now() - started;
  await settle();
  clearInterval(sampler);
  const after = rssMb();
  const heapAfter = heapMb();
  if (!(globalThis as { gc?: () => void }).gc) console.log('(run with --expose-gc for steadier numbers)');
  console.log(`${path.basename(file)} (${megabytes.toFixed(1)} MB): ${tools.length} tools of tag "${tag}" in ${ms} ms`);
  console.log(
    `RSS before ${before.toFixed(0)} MB, highest ${peak.toFixed(0)} MB, after ${after.toFixed(0)} MB (+${(after - before).toFixed(0)} MB); ` +
      `heap in use before ${heapBefore.toFixed(1)} MB, kept after ${heapAfter.toFixed(1)} MB (+${(heapAfter - heapBefore).toFixed(1)} MB)`,
  );
  // Held until here, so what is kept is what the tools hold.
  if (tools.length < 0) console.log(tools);
}

void main();
