// Packs the npm package (the headless CLI) as it is published and as the Docker image installs it.
//
// The bundles carry every runtime dependency (scripts/build.mjs), so the published package.json lists
// none and `npm install -g xiaozhi-tray` downloads nothing but the package. The repository's
// package.json lists them as `dependencies` all the same, so that scanners (Dependabot, npm audit
// --omit=dev, SBOM tools) see what ships. This script packs the files `npm pack` would, with that
// one field left out of the package.json that goes in the tarball; the repository's file is never
// changed. Publish the tarball it makes: npm publish ./xiaozhi-tray-<version>.tgz
//
// Usage: node scripts/pack.mjs [--no-build] [--pack-destination DIR] [--json]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    'pack-destination': { type: 'string', default: ROOT },
    json: { type: 'boolean', default: false },
  },
  strict: true,
});
const npm = (args, cwd) =>
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, { cwd, encoding: 'utf8', shell: process.platform === 'win32' });

if (!values['no-build']) execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });

// What `npm pack` here would put in the tarball (`files`, README, LICENSE, `main`, package.json).
const [listed] = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], ROOT));
const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'xiaozhi-tray-pack-'));
try {
  for (const file of listed.files) {
    if (file.path === 'package.json') continue;
    const to = path.join(stage, file.path);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(path.join(ROOT, file.path), to);
    fs.chmodSync(to, file.mode & 0o777);
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  delete manifest.dependencies;
  fs.writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  // Scripts are not run: the bundles are built already, and prepack would build them again.
  const packed = npm(['pack', stage, '--ignore-scripts', '--json', '--pack-destination', path.resolve(values['pack-destination'])], ROOT);
  process.stdout.write(values.json ? packed : `${path.resolve(values['pack-destination'], JSON.parse(packed)[0].filename)}\n`);
} finally {
  fs.rmSync(stage, { recursive: true, force: true });
}
