import { afterEach, describe, expect, it } from 'vitest';

import { listenForRedirect, type LoopbackRedirect } from '../../../../src/main/core/oauth/loopback-redirect';

let redirect: LoopbackRedirect | undefined;
afterEach(() => {
  redirect?.close();
  redirect = undefined;
});

const get = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, text: await response.text() };
};

describe('the loopback redirect a sign-in comes back to', () => {
  it("listens on 127.0.0.1 at a port of its own, takes only the answer with this sign-in's state, once, with a bilingual page", async () => {
    redirect = await listenForRedirect(10_000);
    expect(redirect.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const answer = redirect.answer(() => 'the-state');
    const forged = await get(`${redirect.url}?code=stolen&state=another`);
    expect(forged.status).toBe(400);
    expect((await get(`${redirect.url.replace('/callback', '/other')}?code=x&state=the-state`)).status).toBe(404);
    const real = await get(`${redirect.url}?code=the-code&state=the-state&iss=https%3A%2F%2Fauth.example`);
    expect(real.status).toBe(200);
    expect(real.text).toContain('Signed in, you can close this tab.');
    expect(real.text).toContain('已登录，可以关闭此页');
    // Chinese first (most users read it first), one language a line, each marked, named for the app.
    expect(real.text.indexOf('已登录')).toBeLessThan(real.text.indexOf('Signed in'));
    expect(real.text).toMatch(/<html lang="zh-CN">[\s\S]*<p lang="en">Signed in, you can close this tab\.<\/p>/);
    expect(real.text).toContain('<title>小智托盘 · Xiaozhi Tray</title>');
    await expect(answer).resolves.toEqual({ code: 'the-code', iss: 'https://auth.example' });
    // One-shot: the listener is gone.
    await expect(fetch(`${redirect.url}?code=again&state=the-state`)).rejects.toThrow();
  });

  it("passes on the sign-in server's refusal (error=access_denied) without a code", async () => {
    redirect = await listenForRedirect(10_000);
    const answer = redirect.answer(() => 's');
    const page = await get(`${redirect.url}?error=access_denied&state=s`);
    expect(page.status).toBe(400);
    expect(page.text).toContain('登录未完成');
    await expect(answer).resolves.toEqual({ error: 'access_denied' });
  });

  it('gives up after its time, saying so as a problem, and closes', async () => {
    redirect = await listenForRedirect(100);
    const answer = redirect.answer(() => 's');
    await expect(answer).rejects.toMatchObject({ problem: { code: 'server.signInFailed', params: { reason: 'timeout' } } });
    await expect(fetch(`${redirect.url}?code=late&state=s`)).rejects.toThrow();
  });
});
