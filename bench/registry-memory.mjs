// node bench/registry-memory.mjs [MB]: bundles bench/registry-memory.ts and runs it (not part of npm test).
import { runMeasurement } from './memory-run.mjs';

await runMeasurement('registry-memory');
