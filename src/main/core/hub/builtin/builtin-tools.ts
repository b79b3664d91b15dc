import type { CallToolResult, Progress, Tool } from '@modelcontextprotocol/sdk/types.js';

import { RESERVED_SERVER_NAME } from '../../../../shared/settings';
import type { CallSignal } from '../../io/call-signal';
import { textResult } from '../result-shaping';

/**
 * The server name the bridge's own tools are listed under. No configured server may take it
 * (the settings refuse it), so switches saved under it always mean these tools.
 */
export const BUILTIN_SERVER = RESERVED_SERVER_NAME;

/** What a built-in tool knows of the call it answers. */
export interface BuiltinCallContext {
  /** The endpoint's name, the local client's name, or `ui`. */
  caller: string;
  /** The connection the call came on (one endpoint session, one local client session), when there is one. */
  session?: string | undefined;
  /** Whose background tasks the caller sees: its endpoint's id (absent: the caller). */
  owner?: string | undefined;
  signal?: CallSignal | undefined;
  onProgress?: ((progress: Progress) => void) | undefined;
  /** The call may go on in the background; the task id it goes on as, once answered early. */
  background?: boolean | undefined;
  task?: { id?: string } | undefined;
  /** Names the call's task after the tool it really runs. */
  nameTask?: ((tool: string) => void) | undefined;
}

/** One tool the bridge serves itself: its definition (as a server would list it) and what a call does. */
export interface BuiltinTool {
  /** Its definition, read at every rebuild (a description follows the voice language). */
  readonly tool: Tool;
  /**
   * Whether it is served now (absent: always). A tool with nothing to do (no tool asks first, no
   * task runs) need not take a place in xiaozhi's small tool budget; the hub asks at every rebuild.
   */
  listed?(): boolean;
  run(args: Record<string, unknown>, context: BuiltinCallContext): Promise<CallToolResult> | CallToolResult;
}

/**
 * The bridge's own tools as one more tool source of the hub, beside the servers: named, switched,
 * routed, checked and recorded in history exactly like a server's tools. Always running.
 */
export class BuiltinTools {
  readonly name = BUILTIN_SERVER;
  readonly isRunning = true;
  readonly enabled = true;
  readonly wordsFailures = true;
  /** Made at the first call: a tool's definition may be worded in a language its owner cannot tell yet. */
  private byName: ReadonlyMap<string, BuiltinTool> | undefined;

  constructor(private readonly list: readonly BuiltinTool[]) {}

  get currentTools(): readonly Tool[] {
    return this.list.filter((entry) => entry.listed?.() !== false).map((entry) => entry.tool);
  }

  get knownTools(): readonly Tool[] {
    return this.currentTools;
  }

  async callTool(name: string, args: Record<string, unknown>, context: Omit<BuiltinCallContext, 'caller'> & { caller?: string }) {
    this.byName ??= new Map(this.list.map((entry) => [entry.tool.name, entry]));
    const entry = this.byName.get(name);
    if (!entry) return textResult(`Xiaozhi Tray has no built-in tool "${name}".`, true);
    return entry.run(args, { ...context, caller: context.caller ?? '' });
  }
}
