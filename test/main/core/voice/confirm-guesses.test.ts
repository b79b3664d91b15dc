import { describe, expect, it } from 'vitest';
import { Confirmations, MAX_HELD_PER_SESSION, MAX_WRONG_CODES } from '../../../../src/main/core/hub/builtin/confirmations';
import { confirmTool } from '../../../../src/main/core/hub/builtin/confirm-tool';
import { heldDelete } from '../../../helpers/held-calls';

// Found by try22: 9,000 guesses in one session found the live code and ran the call; another session's
// code was answered differently from an unknown one ("belongs to another conversation").
function hold(confirmations: Confirmations, session: string, ended: string[] = []) {
  return confirmations.hold(heldDelete({ session, owner: 'e1', ended: (how) => ended.push(how) }));
}

const wrongCode = (held: string) => (held === '1000' ? '1001' : '1000');

describe('guessing confirmation codes', () => {
  it(`${MAX_WRONG_CODES} wrong codes in a session cancel its held calls (told once), the others' stay`, async () => {
    const confirmations = new Confirmations();
    const lockouts: number[] = [];
    confirmations.onTooManyWrong = (_session, cancelled) => lockouts.push(cancelled);
    const ended: string[] = [];
    const mine = hold(confirmations, 's1', ended);
    const theirs = hold(confirmations, 's2');
    const tool = confirmTool({ confirmations, language: () => 'en', wanted: () => true });
    const say = (code: string) => tool.run({ code }, { caller: 'speaker', session: 's1' });
    for (let i = 1; i < MAX_WRONG_CODES; i++)
      expect(await say(wrongCode(mine.code))).toMatchObject({
        content: [{ text: 'That confirmation code is not valid. Ask for the action again.' }],
      });
    expect(await say(wrongCode(mine.code))).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/^Too many wrong confirmation codes/) }],
    });
    expect(lockouts).toEqual([1]);
    expect(ended).toEqual(['expired']);
    // The right code comes too late: nothing runs.
    expect(await say(mine.code)).toMatchObject({ isError: true });
    expect(confirmations.pending().map((h) => h.code)).toEqual([theirs.code]);
  });

  it("another session's live code gets the same answer as an unknown one", async () => {
    const confirmations = new Confirmations();
    const theirs = hold(confirmations, 's2');
    const tool = confirmTool({ confirmations, language: () => 'en', wanted: () => true });
    const other = await tool.run({ code: theirs.code }, { caller: 'speaker', session: 's1' });
    const unknown = await tool.run({ code: wrongCode(theirs.code) }, { caller: 'speaker', session: 's1' });
    expect(other).toEqual(unknown);
    expect(confirmations.size).toBe(1);
  });
});

// Found by try22: "38 97", "code 3897", full-width "１２３４" and the number 3897 were all refused.
describe('a code as speech passes it on', () => {
  it.each([
    ['spaced', (code: string) => `${code.slice(0, 2)} ${code.slice(2)}`],
    ['with a word', (code: string) => `code ${code}`],
    ['full-width', (code: string) => code.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d)))],
    ['a number', (code: string) => Number(code)],
  ])('%s, runs the held call', async (_how, said) => {
    const confirmations = new Confirmations();
    const held = hold(confirmations, 's1');
    const tool = confirmTool({ confirmations, language: () => 'en', wanted: () => true });
    expect(await tool.run({ code: said(held.code) }, { caller: 'speaker', session: 's1' })).toEqual({
      content: [{ type: 'text', text: 'deleted /a' }],
    });
  });
});

// Found by try22: held calls were capped for the whole bridge (oldest expired first), so one session
// looping on a risky tool expired the calls other sessions' users were about to allow.
describe('a session that asks again and again', () => {
  it(`expires its own oldest held calls past ${MAX_HELD_PER_SESSION}, not another session's`, () => {
    const confirmations = new Confirmations();
    const theirs = hold(confirmations, 's2');
    for (let i = 0; i < 40; i++) hold(confirmations, 's1');
    const pending = confirmations.pending();
    expect(pending.filter((h) => h.session === 's1')).toHaveLength(MAX_HELD_PER_SESSION);
    expect(pending.map((h) => h.code)).toContain(theirs.code);
  });
});
