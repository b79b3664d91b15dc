import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SettingsInput } from '../../src/shared/settings';
import { makeBridge, patientConnection, type Harness } from './bridge-harness';
import { FakeXiaozhi, type FakeSession } from './fake-xiaozhi';

/** One endpoint ("home", id e1) in router mode in front of real servers, with its xiaozhi session open. */
export interface RouterRun {
  xiaozhi: FakeXiaozhi;
  harness: Harness;
  session: FakeSession;
  /** A scratch folder for the servers' files, removed by `stop`. */
  work: string;
  stop(): Promise<void>;
}

type EndpointInput = NonNullable<SettingsInput['endpoints']>[number];
type ServerInput = NonNullable<SettingsInput['servers']>[number];

export async function startRouterRun(servers: (work: string) => ServerInput[], endpoint: Partial<EndpointInput> = {}): Promise<RouterRun> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-router-'));
  const xiaozhi = await FakeXiaozhi.start();
  const harness = makeBridge({
    connection: patientConnection,
    endpoints: [{ id: 'e1', name: 'home', url: xiaozhi.url(), toolMode: 'router', ...endpoint }],
    servers: servers(work),
  });
  harness.bridge.start();
  await harness.bridge.whenServersSettled();
  const session = await xiaozhi.connection(0);
  await session.initialize();
  return {
    xiaozhi,
    harness,
    session,
    work,
    stop: async () => {
      await harness.bridge.stop();
      await xiaozhi.close();
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}
