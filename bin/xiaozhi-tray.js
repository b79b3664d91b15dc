#!/usr/bin/env node
// The headless CLI entry; the code lives in the built bundle (npm run build).
const path = require('node:path');
const bundle = path.join(__dirname, '..', 'out', 'cli', 'index.js');
if (!require('node:fs').existsSync(bundle)) {
  // A checkout that was never built (the npm package ships the bundle).
  process.stderr.write(`xiaozhi-tray: ${bundle} is missing; build it first with: npm run build\n`);
  process.exit(1);
}
// Keep V8's young generation at its first size (2 MB rather than up to 32 MB): loading the bundle
// and starting the servers would grow it, and an idle bridge would keep ~10 MB it no longer uses.
// Set here, before the bundle loads; under load the cost is a few more, smaller scavenges. Node 20's
// V8 honours it; later V8s hold the factor at 2 or more, where this line changes nothing.
require('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
require(bundle);
