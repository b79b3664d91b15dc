import type { CallAnswer, CallContext, ToolIdentity } from '../hub/tool-set-view';
import type { EndpointTools } from '../serving/endpoint-catalogs';
import type { CallableTools, SettlingTools } from '../serving/settling-tools';

/**
 * The names one endpoint session was served, and the tool each stands for. xiaozhi-esp32-server
 * lists once per session and calls only names of that list: whatever happens to the catalog later
 * (a server down, one added whose tools clash), a name served keeps calling the same tool. New
 * names are added by the lists the session asks for; none is silently moved to another tool.
 */
export class SessionNames implements CallableTools {
  private readonly served = new Map<string, ToolIdentity>();

  constructor(private readonly tools: SettlingTools<EndpointTools>) {}

  /** A page of a list this session was answered: its names now stand for these tools. */
  learn(names: readonly string[]): void {
    const now = this.tools.current;
    for (const name of names) {
      const identity = now.identityOf(name);
      if (identity) this.served.set(name, identity);
      else this.served.delete(name);
    }
  }

  has(name: string): boolean {
    return this.tools.has(this.currentName(name));
  }

  /** `context` is the call's own (its session makes one per call): the tool it is bound to is set on it, not on a copy. */
  call(name: string, args: Record<string, unknown>, context: CallContext): Promise<CallAnswer> {
    const bound = this.served.get(name);
    if (!bound) return this.tools.call(name, args, context);
    context.boundTo = bound;
    return this.tools.call(this.tools.current.nameOf(bound) ?? name, args, context);
  }

  /** What the tool this session knows by `name` is called now (the same name, unless the catalog renamed it). */
  private currentName(name: string): string {
    const bound = this.served.get(name);
    return bound ? (this.tools.current.nameOf(bound) ?? name) : name;
  }
}
