import { defineConfig } from 'vite';

// The window's bundle. `base: './'` so it loads from file:// inside the app and from / when served headless.
export default defineConfig({
  root: 'src/renderer',
  base: './',
  build: {
    outDir: '../../out/renderer',
    emptyOutDir: true,
    target: 'chrome120',
    sourcemap: false,
  },
});
