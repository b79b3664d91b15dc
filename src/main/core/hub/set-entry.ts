import type { Tool } from '@modelcontextprotocol/sdk/types.js';

import type { PreparedTool } from './tool-pages';

/** One tool of a set as named and prepared for serving (`ToolSetView` keeps them by exposed name). */
export interface SetEntry {
  exposed: string;
  server: string;
  original: Tool;
  enabled: boolean;
  /** Its server is up: only then is it listed and in the catalog; otherwise a call is told why it cannot run. */
  running: boolean;
  prepared: PreparedTool;
}
