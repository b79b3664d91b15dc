import type { catalogueCommands } from '../../../../shared/bridge-api';
import type { CatalogueService } from '../../catalogue/catalogue-service';
import type { CommandHandlers, SettingsAccess } from './command-handlers';

/** What the catalogue commands need of the bridge. */
export interface CatalogueCommandContext extends SettingsAccess {
  catalogue: Pick<CatalogueService, 'get'>;
}

/** The servers to add in one click, and the key for those hosted on ModelScope. */
export function catalogueCommandHandlers(c: CatalogueCommandContext): CommandHandlers<typeof catalogueCommands> {
  return {
    getCatalogue: async (input) => c.catalogue.get(input.refresh),
    setModelscopeKey: async (input) => {
      c.commit({ ...c.settings(), modelscope: input.apiKey === null ? {} : { apiKey: input.apiKey } });
    },
  };
}
