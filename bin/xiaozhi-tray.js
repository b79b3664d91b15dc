#!/usr/bin/env node
// The headless CLI entry; the code lives in the built bundle (npm run build).
const path = require('node:path');
const bundle = path.join(__dirname, '..', 'out', 'cli', 'index.js');
if (!require('node:fs').existsSync(bundle)) {
  // A checkout that was never built (the npm package ships the bundle).
  process.stderr.write(`xiaozhi-tray: ${bundle} is missing; build it first with: npm run build\n`);
  process.exit(1);
}
require(bundle);
