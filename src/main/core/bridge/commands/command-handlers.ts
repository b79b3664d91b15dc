import type { z } from 'zod';

import type { Settings } from '../../../../shared/settings';

/** One group of the contract (`endpointCommands`, `toolSetCommands`…): what its handlers are typed from. */
type CommandGroup = Record<string, { input: z.ZodType; output: z.ZodType }>;

/**
 * A group's handlers, typed from its contract: the input as the bridge validated it (defaults
 * applied), the output as declared. A handler that answers or takes anything else fails `tsc`.
 */
export type CommandHandlers<G extends CommandGroup> = {
  [K in keyof G]: (input: z.output<G[K]['input']>) => Promise<z.output<G[K]['output']>>;
};

/** The bridge's settings as the commands read and change them. */
export interface SettingsAccess {
  settings(): Settings;
  /** Validates and saves; throws (keeping the old settings) when invalid. */
  commit(next: Settings): void;
}

export function requireEndpoint(settings: Settings, id: string): Settings['endpoints'][number] {
  const endpoint = settings.endpoints.find((e) => e.id === id);
  if (!endpoint) throw new Error(`No endpoint has the id "${id}".`);
  return endpoint;
}
