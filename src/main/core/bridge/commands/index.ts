/**
 * The commands the bridge answers: one group per slice of the contract (`src/shared/bridge-api.ts`),
 * each typed from its slice and given only what it needs of the bridge.
 */
export { stateCommandHandlers } from './state-commands';
export { endpointCommandHandlers } from './endpoint-commands';
export { serverCommandHandlers } from './server-commands';
export { toolCommandHandlers } from './tool-commands';
export { preferenceCommandHandlers } from './preference-commands';
export { callCommandHandlers } from './call-commands';
export { taskCommandHandlers } from './task-commands';
export { confirmationCommandHandlers, shownConfirmation } from './confirmation-commands';
export { elicitationCommandHandlers } from './elicitation-commands';
export { catalogueCommandHandlers } from './catalogue-commands';
export { hostCommandHandlers } from './host-commands';
export { importExportCommandHandlers } from './import-export-commands';
export { toolSetCommandHandlers } from './tool-set-commands';
export { modelCommandHandlers } from './model-commands';
export { localEntryContext } from './local-entry';
export { validatedApi } from './validated-api';
export type { CommandHandlers } from './command-handlers';
