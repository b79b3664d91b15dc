import { ANSWER_TIMEOUT_MS, type UpstreamServer } from './upstream';
import type { OwnedUri } from './uri-mapping';

const key = (server: string, uri: string) => `${server}\u0000${uri}`;

interface Hold {
  owned: OwnedUri;
  count: number;
  /** The server's subscribe, as asked. */
  asked: Promise<unknown>;
}

/**
 * Resource subscriptions as the servers hold them: one per resource, however many sessions asked,
 * dropped when the last of them lets go (or goes).
 */
export class Subscriptions {
  private readonly counts = new Map<string, Hold>();

  async add(server: UpstreamServer, uri: string): Promise<void> {
    const k = key(server.name, uri);
    const held = this.counts.get(k);
    if (held) {
      held.count++;
      return;
    }
    const asked = server.client.subscribeResource({ uri }, { timeout: ANSWER_TIMEOUT_MS });
    const entry: Hold = { owned: { server: server.name, uri }, count: 1, asked };
    this.counts.set(k, entry);
    try {
      await asked;
    } catch (error) {
      // Not when its holders let go meanwhile (and someone else took it afresh).
      if (this.counts.get(k) === entry) this.drop(k);
      throw error;
    }
  }

  /** A session let go; the server is told once no session holds the resource (if it is still up). */
  remove(owned: OwnedUri, server: UpstreamServer | undefined): void {
    const k = key(owned.server, owned.uri);
    const asked = this.counts.get(k)?.asked;
    if (!this.drop(k) || !server || !asked) return;
    // After the subscribe is answered: a server that answers requests out of order would take it last.
    asked.then(
      () => server.client.unsubscribeResource({ uri: owned.uri }, { timeout: ANSWER_TIMEOUT_MS }).catch(() => undefined),
      () => undefined,
    );
  }

  /** The resources of a server someone holds (asked again when it comes back up). */
  held(server: string): string[] {
    return [...this.counts.values()].filter((h) => h.owned.server === server).map((h) => h.owned.uri);
  }

  /** True when that was the last hold. */
  private drop(k: string): boolean {
    const held = this.counts.get(k);
    if (!held) return false;
    if (--held.count > 0) return false;
    this.counts.delete(k);
    return true;
  }
}
