#!/usr/bin/env node
// The headless CLI entry; the code lives in the built bundle (npm run build).
const path = require('node:path');
const fs = require('node:fs');
const bundle = path.join(__dirname, '..', 'out', 'cli', 'index.js');
if (!fs.existsSync(bundle)) {
  // A checkout that was never built (the npm package ships the bundle).
  process.stderr.write(`xiaozhi-tray: ${bundle} is missing; build it first with: npm run build\n`);
  process.exit(1);
}
// Keep V8's young generation at its first size (2 MB rather than up to 32 MB): loading the bundle
// and starting the servers would grow it, and an idle bridge would keep ~10 MB it no longer uses.
// Set here, before the bundle loads; under load the cost is a few more, smaller scavenges. Node 20's
// V8 honours it; later V8s hold the factor at 2 or more, where this line changes nothing.
require('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
loadInPieces(bundle);

/**
 * `require(file)`, with the file read 64 KB at a time. `require` reads the 2.7 MB bundle into one
 * buffer; glibc serves that from mmap and, when it is freed, raises its trim threshold past it, so
 * the 8 MB V8 then uses (and frees) compiling the bundle stays resident for the bridge's whole life
 * (7 MB of an idle bridge's 80). Buffers under 128 KB leave glibc's thresholds where they are.
 */
function loadInPieces(file) {
  const Module = require('node:module');
  // A Node without the loader's compile step (none known): the plain way.
  if (typeof Module.prototype._compile !== 'function') return require(file);
  const { StringDecoder } = require('node:string_decoder');
  const decoder = new StringDecoder('utf8');
  const piece = Buffer.allocUnsafeSlow(64 * 1024);
  const fd = fs.openSync(file, 'r');
  let code = '';
  try {
    for (let n; (n = fs.readSync(fd, piece, 0, piece.length, null)) > 0;) code += decoder.write(piece.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  code += decoder.end();
  // As require() would: cached under its path, resolving from its folder, its errors with its lines.
  const loaded = new Module(file, module);
  loaded.filename = file;
  loaded.paths = Module._nodeModulePaths(path.dirname(file));
  Module._cache[file] = loaded;
  loaded._compile(code, file);
  loaded.loaded = true;
  return loaded.exports;
}
