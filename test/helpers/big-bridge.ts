import { type EndpointContext, type Harness, makeBridge, patientConnection } from './bridge-harness';
import { catalogServer } from './catalogs';
import { FakeXiaozhi } from './fake-xiaozhi';

/**
 * A started bridge serving 73 tools to one endpoint "家里" (id e1) in router mode auto: github's and
 * weather's 71 (catalogue servers), and its own task_status and cancel_task, served whenever an endpoint
 * is configured; well over the default budget of 25. Kept in `ctx`, so both are torn down after the test.
 */
export async function bigBridge(ctx: EndpointContext): Promise<Harness & { xiaozhi: FakeXiaozhi }> {
  const xiaozhi = (ctx.xiaozhi = await FakeXiaozhi.start());
  const harness = (ctx.harness = makeBridge(
    {
      connection: patientConnection,
      endpoints: [{ id: 'e1', name: '家里', url: xiaozhi.url() }],
      servers: [catalogServer('github'), catalogServer('weather')],
    },
    undefined,
    { defaultToolMode: 'auto' },
  ));
  harness.bridge.start();
  await harness.bridge.whenServersSettled();
  return { ...harness, xiaozhi };
}
