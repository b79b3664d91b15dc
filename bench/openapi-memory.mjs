// node bench/openapi-memory.mjs [FILE] [TAG]: bundles bench/openapi-memory.ts and runs it (not part of npm test).
import { runMeasurement } from './memory-run.mjs';

await runMeasurement('openapi-memory');
