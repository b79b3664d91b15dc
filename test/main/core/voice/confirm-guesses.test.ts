import { describe, expect, it } from 'vitest';

import { confirmTool } from '../../../../src/main/core/hub/builtin/confirm-tool';
import { MAX_WRONG_PINS, MAX_WRONG_PINS_OVERALL, WRONG_PIN_DECAY_MS } from '../../../../src/main/core/hub/builtin/confirmation-pin';
import { Confirmations, MAX_HELD_PER_SESSION } from '../../../../src/main/core/hub/builtin/confirmations';
import { heldDelete, TEST_PIN } from '../../../helpers/held-calls';

/** Confirmations under a clock the test moves, the confirm tool over them, and what each session says. */
function setup(pin = TEST_PIN) {
  let now = 1_000_000;
  const confirmations = new Confirmations(
    () => pin,
    60_000,
    () => now,
  );
  const lockouts: number[] = [];
  confirmations.onTooManyWrong = (_session, cancelled) => lockouts.push(cancelled);
  const tool = confirmTool({ confirmations, language: () => 'en', wanted: () => true });
  const say = async (pinSaid: unknown, session = 's1') => {
    const answer = await tool.run({ pin: pinSaid }, { caller: 'speaker', session });
    return { text: (answer.content?.[0] as { text: string }).text, isError: answer.isError === true };
  };
  const hold = (session = 's1', ended: string[] = []) => confirmations.hold(heldDelete({ session, ended: (how) => ended.push(how) }));
  return { confirmations, lockouts, say, hold, tick: (ms: number) => (now += ms) };
}

const STILL_WAITING = 'That is not the PIN. Delete a file (path: /a) is still waiting: ask the person for their PIN again.';

// Issue 30: a misheard PIN made the model redo the whole action ("请重新发起操作"), and the person confirmed twice.
describe('a wrong PIN', () => {
  it('leaves the action waiting and says so; the right one then runs it once', async () => {
    const { confirmations, say, hold } = setup();
    hold();
    expect(await say('482139')).toEqual({ text: STILL_WAITING, isError: true });
    expect(confirmations.size).toBe(1);
    expect(await say(TEST_PIN)).toEqual({ text: 'deleted /a', isError: false });
    expect(await say(TEST_PIN)).toEqual({
      text: 'Delete a file (path: /a) was already confirmed. Do not ask for it again.',
      isError: false,
    });
  });

  it(`${MAX_WRONG_PINS} in a session cancel its held calls (told once); the others' stay; then voice waits, even with the right PIN`, async () => {
    const { confirmations, lockouts, say, hold } = setup();
    const ended: string[] = [];
    hold('s1', ended);
    const theirs = hold('s2');
    for (let i = 1; i < MAX_WRONG_PINS; i++) expect(await say('000000')).toEqual({ text: STILL_WAITING, isError: true });
    expect(await say('000000')).toEqual({
      text: 'Too many wrong PINs: the actions waiting for confirmation were cancelled. The person can still allow actions in the Xiaozhi Tray window.',
      isError: true,
    });
    expect(lockouts).toEqual([1]);
    expect(ended).toEqual(['expired']);
    expect(confirmations.pending()).toEqual([theirs]);
    // Said again with nothing waiting: how long voice waits, not "expired, ask again" (found against the real relay).
    expect(await say(TEST_PIN)).toEqual({
      text: 'Too many wrong PINs lately: confirming by voice waits 10 min. The person can allow it in the Xiaozhi Tray window.',
      isError: true,
    });
    hold('s1');
    expect(await say(TEST_PIN)).toEqual({
      text: 'Too many wrong PINs lately: confirming by voice waits 10 min. The person can allow it in the Xiaozhi Tray window.',
      isError: true,
    });
    expect(confirmations.pending()).toHaveLength(2);
    // Another conversation (another device behind the relay) is not held back by this one's guesses.
    expect(await say(TEST_PIN, 's2')).toEqual({ text: 'deleted /a', isError: false });
  });

  it('counts fade with time: wrong PINs of an hour ago do not add up with today’s', async () => {
    const { confirmations, lockouts, say, hold, tick } = setup();
    hold();
    for (let i = 1; i < MAX_WRONG_PINS; i++) await say('000000');
    tick(2 * WRONG_PIN_DECAY_MS);
    // The held call waited a minute only: the model asks again.
    hold();
    for (let i = 0; i < 2; i++) expect((await say('000000')).text).toBe(STILL_WAITING);
    expect(lockouts).toEqual([]);
    expect(confirmations.size).toBe(1);
    expect((await say(TEST_PIN)).text).toBe('deleted /a');
  });

  it(`past ${MAX_WRONG_PINS_OVERALL} across conversations (a new conversation per guess), voice waits for everyone`, async () => {
    const { say, hold } = setup();
    for (let i = 0; i < MAX_WRONG_PINS_OVERALL; i++) {
      hold(`device-${i}`);
      await say('000000', `device-${i}`);
    }
    hold('another');
    expect((await say(TEST_PIN, 'another')).text).toMatch(/^Too many wrong PINs lately: confirming by voice waits \d+ min\./);
  });

  it('is not even checked when nothing waits: guessing with nothing to confirm tells nothing and counts nothing', async () => {
    const { lockouts, say, hold } = setup();
    for (let i = 0; i < 3 * MAX_WRONG_PINS; i++)
      expect(await say(String(100000 + i))).toEqual({ text: 'Nothing is waiting for confirmation.', isError: true });
    expect(await say(TEST_PIN)).toEqual({ text: 'Nothing is waiting for confirmation.', isError: true });
    expect(lockouts).toEqual([]);
    hold();
    expect((await say(TEST_PIN)).text).toBe('deleted /a');
  });
});

// The PIN as speech recognition writes it, or as a model passes it on.
describe('a PIN as speech passes it on', () => {
  it.each([
    ['as said', '482193'],
    ['spaced', '48 21 93'],
    ['full-width', '４８２１９３'],
    ['in Chinese numerals', '四八二幺九三'],
    ['in English words', 'four eight two one nine three'],
    ['as a number', 482193],
    ['in a sentence', 'my PIN is 482193.'],
  ])('%s, runs the held call', async (_how, said) => {
    const { say, hold } = setup();
    hold();
    expect((await say(said)).text).toBe('deleted /a');
  });

  it.each([
    ['橘子汽水', '橘子，汽水。'],
    ['Pineapple', 'pineapple!'],
  ])('a word (%s) said as "%s", runs the held call', async (pin, said) => {
    const { say, hold } = setup(pin);
    hold();
    expect((await say(said)).text).toBe('deleted /a');
  });

  it('a PIN with a digit more or less is a wrong one', async () => {
    const { say, hold } = setup();
    hold();
    expect((await say('4821930')).text).toBe(STILL_WAITING);
    expect((await say('48219')).text).toBe(STILL_WAITING);
  });
});

describe('what the PIN confirms', () => {
  it('the newest action waiting in its own session only', async () => {
    const { confirmations, say } = setup();
    const ran: string[] = [];
    const held = (path: string, session = 's1') =>
      confirmations.hold(
        heldDelete({
          session,
          action: `Delete a file (path: ${path})`,
          run: async () => {
            ran.push(path);
            return { result: { content: [{ type: 'text', text: `deleted ${path}` }] } };
          },
        }),
      );
    held('/old');
    held('/theirs', 's2');
    held('/new');
    expect((await say(TEST_PIN)).text).toBe('deleted /new');
    expect(ran).toEqual(['/new']);
    expect(confirmations.pending().map((h) => h.action)).toEqual(['Delete a file (path: /old)', 'Delete a file (path: /theirs)']);
  });

  it('never an action held for the window only: that one is said to wait there', async () => {
    const { confirmations, say } = setup();
    let ran = false;
    confirmations.hold(heldDelete({ via: 'window', run: async () => ((ran = true), { result: { content: [] } }) }));
    expect(await say(TEST_PIN)).toEqual({
      text: 'Delete a file (path: /a) can only be allowed in the Xiaozhi Tray window or its web page, not by voice.',
      isError: true,
    });
    expect(ran).toBe(false);
    expect(confirmations.size).toBe(1);
  });
});

// Before: held calls were capped for the whole bridge (oldest expired first), so one session
// looping on a risky tool expired the calls other sessions' users were about to allow.
describe('a session that asks again and again', () => {
  it(`expires its own oldest held calls past ${MAX_HELD_PER_SESSION}, not another session's`, () => {
    const { confirmations, hold } = setup();
    const theirs = hold('s2');
    for (let i = 0; i < 40; i++) hold('s1');
    const pending = confirmations.pending();
    expect(pending.filter((h) => h.session === 's1')).toHaveLength(MAX_HELD_PER_SESSION);
    expect(pending).toContain(theirs);
  });
});
