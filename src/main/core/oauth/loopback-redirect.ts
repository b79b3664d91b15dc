import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { problem } from '../../../shared/problem';
import { OAuthStop } from './server-oauth';

/**
 * Where the browser comes back after a sign-in: a one-shot HTTP listener on 127.0.0.1 at a port
 * the system picks (RFC 8252 §7.3). Only an answer carrying this sign-in's `state` is taken; then
 * it closes. It gives up after `timeoutMs`.
 */

export interface RedirectAnswer {
  code?: string;
  error?: string;
  iss?: string;
}

export interface LoopbackRedirect {
  /** http://127.0.0.1:PORT/callback */
  url: string;
  /** The browser's answer (the code, or the sign-in server's error); rejects on timeout or `close()`. */
  answer(expectedState: () => string | undefined): Promise<RedirectAnswer>;
  close(): void;
}

const PATH = '/callback';

/**
 * The page the browser shows when it is done: short, in both languages (the user's language is not
 * known here), Chinese first as most users read it first, one language a line, in the system's font.
 */
const DONE_PAGE = page('已登录，可以关闭此页。', 'Signed in, you can close this tab.');
const FAILED_PAGE = page('登录未完成，请回到小智托盘。', 'Sign-in did not complete; go back to Xiaozhi Tray.');
const NOT_OURS_PAGE = page('这不是正在进行的登录的返回结果。', 'This is not the answer to a sign-in in progress.');

function page(chinese: string, english: string): string {
  const style =
    'body{font:16px/1.6 system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC","Microsoft YaHei",sans-serif;margin:15vh auto;max-width:36em;padding:0 1.5em}h1{font-size:1.1em}';
  return (
    `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
    `<meta name="color-scheme" content="light dark"><title>小智托盘 · Xiaozhi Tray</title><style>${style}</style></head>` +
    `<body><h1>小智托盘 · Xiaozhi Tray</h1><p>${chinese}</p><p lang="en">${english}</p></body></html>`
  );
}

export async function listenForRedirect(timeoutMs: number): Promise<LoopbackRedirect> {
  let settle: { resolve: (answer: RedirectAnswer) => void; reject: (error: Error) => void } | undefined;
  let expected: () => string | undefined = () => undefined;
  let done = false;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', connection: 'close' });
      res.end(body);
    };
    if (req.method !== 'GET' || url.pathname !== PATH) return send(404, NOT_OURS_PAGE);
    const state = url.searchParams.get('state');
    const want = expected();
    if (done || !settle || !want || state !== want) return send(400, NOT_OURS_PAGE);
    const get = (name: string) => url.searchParams.get(name) ?? undefined;
    const answer: RedirectAnswer = {
      ...(get('code') !== undefined ? { code: get('code') } : {}),
      ...(get('error') !== undefined ? { error: get('error') } : {}),
      ...(get('iss') !== undefined ? { iss: get('iss') } : {}),
    };
    send(answer.code !== undefined ? 200 : 400, answer.code !== undefined ? DONE_PAGE : FAILED_PAGE);
    finish();
    settle.resolve(answer);
  });
  const timer = setTimeout(() => {
    settle?.reject(new OAuthStop(problem('server.signInFailed', { reason: 'timeout' })));
    finish();
  }, timeoutMs);
  timer.unref();
  function finish() {
    done = true;
    clearTimeout(timer);
    server.close();
    server.closeAllConnections();
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const answered = new Promise<RedirectAnswer>((resolve, reject) => (settle = { resolve, reject }));
  // Handled by whoever awaits `answer()`; not an unhandled rejection if nobody does (closed early).
  answered.catch(() => undefined);
  return {
    url: `http://127.0.0.1:${port}${PATH}`,
    answer: (state) => {
      expected = state;
      return answered;
    },
    close: () => {
      if (done) return;
      finish();
      settle?.reject(new OAuthStop(problem('server.signInFailed', { reason: 'timeout' })));
    },
  };
}
