import type { Confirmations } from '../../src/main/core/hub/builtin/confirmations';

type HoldRequest = Parameters<Confirmations['hold']>[0];

/** The person's confirmation PIN in tests that make their own Confirmations. */
export const TEST_PIN = '482193';

/** A voice call of files/delete_file held for the person's PIN in session s1; `changes` replace any part of it. */
export function heldDelete(changes: Partial<HoldRequest> = {}): HoldRequest {
  return {
    session: 's1',
    via: 'pin',
    caller: 'speaker',
    owner: 'speaker',
    server: 'files',
    tool: 'delete_file',
    title: 'Delete a file',
    action: 'Delete a file (path: /a)',
    args: { path: '/a' },
    run: async () => ({ result: { content: [{ type: 'text', text: 'deleted /a' }] } }),
    ended: () => {},
    ...changes,
  };
}
