import { version } from '../../../../package.json';

/**
 * The app's version, from package.json and nowhere else: what `--version` prints, the serverInfo
 * xiaozhi and local clients get, the clientInfo every MCP server gets. esbuild inlines this one field
 * at build time (the bundles carry no package.json); run from source (vitest), it is read from the file.
 */
export const APP_VERSION: string = version;
