import { type EndpointContext, fixtureServer, type Harness, makeBridge } from './bridge-harness';
import { Esp32Client } from './esp32-client';
import { FakeXiaozhi } from './fake-xiaozhi';

/**
 * A fake xiaozhi (endpoint "speaker") and a started bridge serving the fixture's destructive tool
 * (server "files"), kept in `ctx` for teardown; xiaozhi then calls delete_file with `args`, which waits
 * for the person's OK. Resolves to the bridge's harness.
 */
export async function holdDeleteFile(ctx: EndpointContext, args: Record<string, unknown>): Promise<Harness> {
  ctx.xiaozhi = await FakeXiaozhi.start();
  const harness = makeBridge({
    endpoints: [{ id: 'e', name: 'speaker', url: ctx.xiaozhi.url() }],
    servers: [fixtureServer('files', { FIXTURE_DESTRUCTIVE: '1' })],
  });
  ctx.harness = harness;
  harness.bridge.start();
  await harness.bridge.whenServersSettled();
  const esp = await Esp32Client.open(await ctx.xiaozhi.connection(0));
  await esp.say('delete_file', args);
  return harness;
}
