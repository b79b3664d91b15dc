import { ANSWER_TIMEOUT_MS, type UpstreamServer } from './upstream';
import type { OwnedUri } from './uri-mapping';

const key = (server: string, uri: string) => `${server}\u0000${uri}`;

/**
 * Resource subscriptions as the servers hold them: one per resource, however many sessions asked,
 * dropped when the last of them lets go (or goes).
 */
export class Subscriptions {
  private readonly counts = new Map<string, { owned: OwnedUri; count: number }>();

  async add(server: UpstreamServer, uri: string): Promise<void> {
    const k = key(server.name, uri);
    const held = this.counts.get(k);
    if (held) {
      held.count++;
      return;
    }
    this.counts.set(k, { owned: { server: server.name, uri }, count: 1 });
    try {
      await server.client.subscribeResource({ uri }, { timeout: ANSWER_TIMEOUT_MS });
    } catch (error) {
      this.drop(k);
      throw error;
    }
  }

  /** A session let go; the server is told once no session holds the resource (if it is still up). */
  remove(owned: OwnedUri, server: UpstreamServer | undefined): void {
    const k = key(owned.server, owned.uri);
    if (!this.drop(k) || !server) return;
    server.client.unsubscribeResource({ uri: owned.uri }, { timeout: ANSWER_TIMEOUT_MS }).catch(() => undefined);
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
