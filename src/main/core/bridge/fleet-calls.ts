import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import { CallPassthrough } from '../local-server/passthrough/call-passthrough';
import { runningClients } from '../local-server/passthrough/fleet-servers';
import type { CallHistory } from '../logs/call-history';
import { ChildServer } from '../servers/child-server';
import type { ServerFleet } from './server-fleet';

/** The passthrough over the fleet's MCP servers (web services have no client to pass anything to). */
export function fleetCallPassthrough(fleet: () => ServerFleet, history: CallHistory): CallPassthrough {
  const clientOf = (name: string): Client | undefined => {
    const server = fleet().has(name) ? fleet().require(name) : undefined;
    return server instanceof ChildServer ? server.sdkClient : undefined;
  };
  return new CallPassthrough({
    clientOf,
    history,
    clients: () => runningClients(fleet().all()).map((up) => up.client),
  });
}
