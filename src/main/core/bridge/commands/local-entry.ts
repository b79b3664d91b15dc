import { defaultConnectCommand, type EntryContext } from '../../local-server/client-entries';
import type { LocalServerController } from '../../local-server/local-server-controller';
import type { BridgeHost } from '../bridge-host';

/** What an entry for this app's local server says (in "Add to …" and an export): its URL, token and `connect` command. */
export function localEntryContext(
  localServer: Pick<LocalServerController, 'baseUrl' | 'token'>,
  host: Pick<BridgeHost, 'connectCommand'>,
): () => EntryContext {
  return () => ({
    url: localServer.baseUrl(),
    appToken: localServer.token(),
    connect: host.connectCommand?.() ?? defaultConnectCommand(),
  });
}
