import { type BridgeApi, bridgeCommands, bridgeEvents, type CommandName, commandNames, type EventName } from './bridge-api';

/** How a carrier moves commands and events; the client adds types and validation on top. */
export interface BridgeCarrier {
  invoke(command: CommandName, input: unknown): Promise<unknown>;
  subscribe(event: EventName, listener: (payload: unknown) => void): () => void;
}

/** Electron prefixes errors thrown by handlers; the user should see only our message. */
export function cleanRemoteError(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(message.replace(/^Error invoking remote method '[^']+': (?:Error: )?/, ''));
}

/**
 * A `BridgeApi` over any carrier. Outputs and event payloads are validated here, on the receiving
 * side, so a UI never acts on a malformed message.
 */
export function createBridgeClient(carrier: BridgeCarrier): BridgeApi {
  const api = {} as Record<string, unknown>;
  for (const name of commandNames) {
    api[name] = async (input: unknown) => {
      let output: unknown;
      try {
        output = await carrier.invoke(name, input);
      } catch (error) {
        throw cleanRemoteError(error);
      }
      const parsed = bridgeCommands[name].output.safeParse(output);
      if (!parsed.success) throw new Error(`The bridge sent an unexpected answer to "${name}".`);
      return parsed.data;
    };
  }
  api.on = (event: EventName, listener: (payload: unknown) => void) =>
    carrier.subscribe(event, (payload) => {
      const parsed = bridgeEvents[event].safeParse(payload);
      if (parsed.success) listener(parsed.data);
    });
  return api as BridgeApi;
}

export const commandChannel = (name: CommandName) => `xiaozhi:command:${name}`;
export const eventChannel = (name: EventName) => `xiaozhi:event:${name}`;
