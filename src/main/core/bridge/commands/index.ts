/**
 * The commands the bridge answers: one group per slice of the contract (`src/shared/bridge-api.ts`),
 * each typed from its slice and given only what it needs of the bridge.
 */
export { callCommandHandlers } from './call-commands';
export { catalogueCommandHandlers } from './catalogue-commands';
export type { CommandHandlers } from './command-handlers';
export { confirmationCommandHandlers, shownConfirmation } from './confirmation-commands';
export { elicitationCommandHandlers } from './elicitation-commands';
export { endpointCommandHandlers } from './endpoint-commands';
export { hostCommandHandlers } from './host-commands';
export { importExportCommandHandlers } from './import-export-commands';
export { localEntryContext } from './local-entry';
export { modelCommandHandlers } from './model-commands';
export { preferenceCommandHandlers } from './preference-commands';
export { runtimeCommandHandlers } from './runtime-commands';
export { serverCommandHandlers } from './server-commands';
export { stateCommandHandlers } from './state-commands';
export { taskCommandHandlers } from './task-commands';
export { toolCommandHandlers } from './tool-commands';
export { toolSetCommandHandlers } from './tool-set-commands';
export { validatedApi } from './validated-api';
