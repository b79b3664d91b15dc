import { createHmac } from 'node:crypto';

import { secretsEqual } from '../io/http-gate';

/**
 * Each local client's own bearer token, derived from the app's one token (`localServer.token`):
 * the token in Cursor's file opens `/mcp/cursor` only, never `/mcp/vscode` (tool sets are no
 * boundary when one token opens every path). Derived, not stored: nothing new to keep secret in the
 * settings, `connect` and `export` compute the same value from the token they already read, and a
 * new app token replaces every client's at once. The app's token itself opens `/mcp` (and `/status`).
 */
export function clientToken(appToken: string, client: string): string {
  if (client === '') return appToken;
  // The label keeps these apart from the proofs below, which are HMACs under a token too.
  return createHmac('sha256', appToken).update(`xiaozhi-tray client token\0${client}`).digest('base64url').slice(0, 32);
}

/** A nonce `connect` sends: long enough to be fresh, short and plain enough to pass in a query. */
export const PROOF_NONCE = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * An address as both ends of a connection name it: no brackets, lower case, an IPv4 address
 * reached through a dual-stack socket (`::ffff:127.0.0.1`) as plain IPv4.
 */
export function proofAddress(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  return bare.startsWith('::ffff:') && bare.includes('.') ? bare.slice('::ffff:'.length) : bare;
}

/**
 * What the local server answers to a nonce, showing it knows a path's token without sending it:
 * `connect` checks it before it hands the token to whatever listens at the address it was given.
 * Bound to the address and port the request reached (the server's side of the socket), so a
 * listener elsewhere (another port, or the same port at another loopback address) cannot pass the
 * real app's answer on as its own.
 */
export function tokenProof(token: string, nonce: string, address: string, port: number): string {
  return createHmac('sha256', token)
    .update(`xiaozhi-tray proof\0${proofAddress(address)}\0${port}\0${nonce}`)
    .digest('base64url');
}

/** Compares a proof in constant time. */
export function proofMatches(given: string, token: string, nonce: string, address: string, port: number): boolean {
  return secretsEqual(given, tokenProof(token, nonce, address, port));
}
