import { afterAll, beforeAll, describe, it } from 'vitest';

import { loadQueries } from '../helpers/catalogs';
import { type CatalogRouterRun, expectFoundInTop3, startCatalogRouterRun } from '../helpers/router-run';
import { scaled } from '../helpers/time-scale';

/**
 * Quality run (`npm run quality:router`): the whole query set through router mode over the 10 real
 * catalog servers, as the model would ask it. `npm test` checks three of these queries the same way
 * (router-mode.test.ts) and every one against the search alone (router/tool-search.test.ts).
 */
let run: CatalogRouterRun | undefined;

beforeAll(async () => {
  run = await startCatalogRouterRun();
}, scaled(60_000));

afterAll(async () => {
  await run?.stop();
});

describe('router mode over 300 tools from 10 running servers: the query set', () => {
  it.each(loadQueries())('find_tools ranks a right tool in its top 3 for "$query"', async (query) => {
    await expectFoundInTop3(run!, query);
  });
});
