import path from 'node:path';

import { build, type BuildOptions, type Metafile } from 'esbuild';

/**
 * The files a bundle is made of, resolved with `options` (scripts/bundle-options.mjs for the Node
 * bundles, as scripts/build.mjs resolves them): only the inputs are looked at, nothing is written.
 */
export async function bundleInputs(root: string, entry: string, options: BuildOptions): Promise<Metafile['inputs']> {
  const result = await build({
    ...options,
    entryPoints: [path.join(root, entry)],
    absWorkingDir: root,
    write: false,
    metafile: true,
    sourcemap: false,
    outdir: 'out/metafile-only',
    logLevel: 'error',
  });
  return result.metafile.inputs;
}
