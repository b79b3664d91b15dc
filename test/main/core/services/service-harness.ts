import { afterEach } from 'vitest';

import { LogBook } from '../../../../src/main/core/logs/log-book';
import { ServiceHttp } from '../../../../src/main/core/services/service-http';
import type { ServiceContext } from '../../../../src/main/core/services/service-tools';
import { translate } from '../../../../src/shared/i18n/translate';
import type { SkippedTool } from '../../../../src/shared/status';
import { type Harness, startServing, tearDown } from '../../../helpers/bridge-harness';
import type { FakeSession, FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { ServiceStandIns } from '../../../helpers/service-stand-ins';

/**
 * A bridge serving web services pointed at the platform stand-ins, called as xiaozhi calls (a real
 * WebSocket endpoint), torn down after each test. `call` answers what the model hears.
 */
export interface ServiceRun {
  standIns: ServiceStandIns;
  harness: Harness;
  session: FakeSession;
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  /** The requests a platform saw, by the start of their path. */
  requests(prefix: string): { method: string; path: string; body: unknown; headers: Record<string, unknown> }[];
}

export function serviceRuns(): (
  entries: (base: string) => Record<string, unknown>[],
  settings?: Record<string, unknown>,
  before?: (standIns: ServiceStandIns) => void,
) => Promise<ServiceRun> {
  const open: { standIns: ServiceStandIns; harness: Harness; xiaozhi: FakeXiaozhi }[] = [];
  afterEach(async () => {
    for (const run of open.splice(0)) {
      await tearDown(run.harness, run.xiaozhi);
      await run.standIns.close();
    }
  });
  return async (entries, settings = {}, before) => {
    const standIns = await ServiceStandIns.start();
    before?.(standIns);
    const { xiaozhi, harness, session } = await startServing({ servers: entries(standIns.base) as never, ...settings });
    open.push({ standIns, harness, xiaozhi });
    let id = 500;
    return {
      standIns,
      harness,
      session,
      call: async (name, args = {}) => {
        const response = await session.request(id++, 'tools/call', { name, arguments: args });
        return { text: String(response.result?.content?.[0]?.text ?? ''), isError: response.result?.isError === true };
      },
      requests: (prefix) => standIns.seen.filter((r) => r.path.startsWith(prefix)),
    };
  };
}

/** What a platform's tool builder is handed, as the server hands it (English; tools left out collected). */
export function testContext(platform: string, extra: Partial<ServiceContext> = {}): ServiceContext & { leftOut: SkippedTool[] } {
  const leftOut: SkippedTool[] = [];
  return {
    http: new ServiceHttp(platform),
    timeoutMs: 5000,
    log: new LogBook().logger('server:t'),
    language: () => 'en',
    say: (key, params) => translate('en', key, params),
    leaveOut: (skipped) => void leftOut.push(skipped),
    leftOut,
    ...extra,
  };
}
