import { homedir } from 'node:os';

import type { catalogueCommands } from '../../../../shared/bridge-api';
import type { CatalogueService } from '../../catalogue/catalogue-service';
import { checkPathValue } from '../../catalogue/path-values';
import type { CommandHandlers, SettingsAccess } from './command-handlers';

/** What the catalogue commands need of the bridge. */
export interface CatalogueCommandContext extends SettingsAccess {
  catalogue: Pick<CatalogueService, 'get'>;
}

/** The servers to add in one click, and the key for those hosted on ModelScope. */
export function catalogueCommandHandlers(c: CatalogueCommandContext): CommandHandlers<typeof catalogueCommands> {
  return {
    getCatalogue: async (input) => c.catalogue.get(input.refresh),
    checkPathValues: async ({ values }) => {
      const home = homedir();
      return { home, checks: await Promise.all(values.map((v) => checkPathValue(v.value, v.kind, home))) };
    },
    setModelscopeKey: async (input) => {
      c.commit({ ...c.settings(), modelscope: input.apiKey === null ? {} : { apiKey: input.apiKey } });
    },
  };
}
