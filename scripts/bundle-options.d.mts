import type { BuildOptions, Plugin } from 'esbuild';

export declare const nodeBundle: BuildOptions;
export declare function zodEnglishOnly(): Plugin;
