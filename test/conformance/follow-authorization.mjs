#!/usr/bin/env node
// What "opening the authorization page" means in the conformance client scenarios: the suite's test
// authorization server approves at once, so following its redirects with plain GETs (no cookies, no body)
// ends at the bridge's loopback callback with the code. client-adapter.mjs names this file in
// XIAOZHI_TRAY_OAUTH_OPEN, the program the bridge runs with the authorization URL as its one argument
// instead of opening a browser.
//
//   test/conformance/follow-authorization.mjs AUTHORIZATION_URL
const MAX_HOPS = 10;

async function follow(start) {
  let url = new URL(start);
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const answer = await fetch(url, { redirect: 'manual' });
    await answer.body?.cancel();
    const next = answer.headers.get('location');
    if (answer.status < 300 || answer.status >= 400 || !next) {
      if (answer.ok) return 0;
      // The origin and path only: the query holds the code or the state.
      process.stderr.write(`authorization: ${url.origin}${url.pathname} answered ${answer.status}\n`);
      return 1;
    }
    url = new URL(next, url);
  }
  process.stderr.write(`authorization: more than ${MAX_HOPS} redirects\n`);
  return 1;
}

if (!process.argv[2]) {
  process.stderr.write('usage: follow-authorization.mjs AUTHORIZATION_URL\n');
  process.exitCode = 2;
} else process.exitCode = await follow(process.argv[2]);
