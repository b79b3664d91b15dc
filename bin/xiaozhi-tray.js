#!/usr/bin/env node
// The headless CLI entry; the code lives in the built bundle (npm run build).
require('../out/cli/index.js');
