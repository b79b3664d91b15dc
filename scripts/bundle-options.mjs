// The esbuild options of the Node bundles (scripts/build.mjs).
/**
 * zod's namespace export of its ~50 error-message locales cannot be tree-shaken, and V8 holds a
 * bundle's whole source in memory: only the English one (zod's default, the one used) is bundled.
 */
export function zodEnglishOnly() {
  return {
    name: 'zod-english-only',
    setup(b) {
      b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
        /[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'zod-english-only' } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, () => ({
        contents: "export { default as en } from 'zod/v4/locales/en.js';",
        resolveDir: process.cwd(),
      }));
    },
  };
}

/** What every Node bundle is built with; tests read the bundles' inputs with the same options. */
export const nodeBundle = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  // Electron is provided by the runtime; never bundle it. supports-color is an optional peer of
  // debug (under electron-updater), which tries to require it and does without: installed for the
  // tooling only, it is not ours to ship.
  external: ['electron', 'supports-color'],
  // Prefer ESM builds: some packages' UMD builds use dynamic requires esbuild cannot follow.
  mainFields: ['module', 'main'],
  plugins: [zodEnglishOnly()],
};
