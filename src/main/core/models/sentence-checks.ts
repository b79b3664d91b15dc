import type { CheckedTool, CheckFailure, SentenceCheck, SentenceCheckPlan, SentenceTry } from '../../../shared/model-api';
import type { SentenceSets } from '../../../shared/model-settings';
import type { ToolHub } from '../hub/tool-hub';
import type { EndpointCatalogs, EndpointMode } from '../serving/endpoint-catalogs';
import type { ModelClient } from './model-client';
import type { SentenceTrial } from './sentence-trial';
import { servedFunctions } from './served-functions';

/** Sentences asked at once: a provider's rate limit is the usual bound, and a local model answers one at a time. */
export const CHECK_CONCURRENCY = 2;
/** The longest wait a rate limit is given before its sentence is tried again once (longer: it is said as a failure). */
const MAX_RATE_WAIT_MS = 30_000;
/** Tokens a request carries besides the tool list: the prompt, the sentence, the answer. */
const TOKENS_BESIDES_TOOLS = 300;

export interface CheckDeps {
  trial: SentenceTrial;
  hub: Pick<ToolHub, 'forSet'>;
  catalogs: Pick<EndpointCatalogs, 'pagesFor'>;
}

interface Sentence {
  server: string;
  tool: string;
  text: string;
}

/** The sentences of the sets that are tools of this endpoint's set (by server and the server's own name). */
function sentencesOf(sets: SentenceSets, only?: { server?: string | undefined; tool?: string | undefined }): Sentence[] {
  const out: Sentence[] = [];
  for (const [server, tools] of Object.entries(sets)) {
    if (only?.server !== undefined && server !== only.server) continue;
    for (const [tool, sentences] of Object.entries(tools)) {
      if (only?.tool !== undefined && tool !== only.tool) continue;
      for (const text of sentences) if (text.trim() !== '') out.push({ server, tool, text: text.trim() });
    }
  }
  return out;
}

/** What a check will cost: the requests it makes, each carrying the tool list (tokens about: a token is some 3 bytes of JSON). */
export function checkPlan(
  deps: Pick<CheckDeps, 'catalogs'>,
  mode: EndpointMode,
  sets: SentenceSets,
): Omit<SentenceCheckPlan, 'provider' | 'model'> {
  const sentences = sentencesOf(sets);
  const { bytes } = servedFunctions(deps.catalogs.pagesFor(mode));
  // Router mode: find_tools, then call_tool; all mode: one request a sentence.
  const requests = sentences.length * (mode.toolMode === 'router' ? 2 : 1);
  return {
    sentences: sentences.length,
    tools: new Set(sentences.map((s) => `${s.server}\u0000${s.tool}`)).size,
    requests,
    bytes,
    tokens: requests * (Math.ceil(bytes / 3) + TOKENS_BESIDES_TOOLS),
  };
}

/**
 * "Check all": every sample sentence put to the model (without running anything), at most
 * `CHECK_CONCURRENCY` at once, cancellable; per tool, how often the right tool was picked with
 * arguments our check accepts, and what happened otherwise.
 */
export async function checkSentences(
  deps: CheckDeps,
  client: ModelClient,
  mode: EndpointMode,
  sets: SentenceSets,
  options: {
    signal: AbortSignal;
    only?: { server?: string | undefined; tool?: string | undefined };
    onProgress?: (done: number, total: number) => void;
    /** Waits (cancellably) for a rate limit's Retry-After: tests give a shorter one. */
    wait?: (ms: number, signal: AbortSignal) => Promise<void>;
  },
): Promise<SentenceCheck> {
  const sentences = sentencesOf(sets, options.only);
  const view = deps.hub.forSet(mode.toolSet);
  const results = new Map<string, CheckedTool>();
  for (const { server, tool } of sentences) {
    const key = `${server}\u0000${tool}`;
    if (results.has(key)) continue;
    const name = view.nameOf({ server, tool });
    const served = name !== undefined && view.catalog().some((entry) => entry.name === name && entry.enabled);
    results.set(key, { server, tool, ...(served ? { name } : {}), total: 0, passed: 0, failures: [] });
  }
  const wait = options.wait ?? sleep;
  let requests = 0;
  let done = 0;
  let next = 0;
  const one = async (sentence: Sentence): Promise<void> => {
    const result = results.get(`${sentence.server}\u0000${sentence.tool}`) as CheckedTool;
    // A tool the endpoint does not serve now cannot be picked: asking would only cost the user a request.
    if (result.name === undefined) {
      result.total++;
      return;
    }
    let tried: SentenceTry = await deps.trial.try(client, sentence.text, mode, { signal: options.signal });
    requests += tried.requests;
    // A rate limit that asks for a short wait is given it, once.
    const seconds = tried.problem?.code === 'model.rateLimited' ? Number(tried.problem.params.seconds ?? 1) : undefined;
    if (seconds !== undefined && seconds * 1000 <= MAX_RATE_WAIT_MS && !options.signal.aborted) {
      await wait(seconds * 1000, options.signal).catch(() => undefined);
      if (!options.signal.aborted) {
        tried = await deps.trial.try(client, sentence.text, mode, { signal: options.signal });
        requests += tried.requests;
      }
    }
    if (options.signal.aborted) return;
    result.total++;
    const failure = judged(tried, sentence);
    if (failure) result.failures.push(failure);
    else result.passed++;
  };
  const worker = async () => {
    while (next < sentences.length && !options.signal.aborted) {
      const sentence = sentences[next++] as Sentence;
      await one(sentence);
      if (options.signal.aborted) return;
      options.onProgress?.(++done, sentences.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CHECK_CONCURRENCY, sentences.length) }, worker));
  return { tools: [...results.values()], requests, cancelled: options.signal.aborted };
}

/** Undefined when the right tool was picked with arguments our check accepts; otherwise what happened. */
function judged(tried: SentenceTry, sentence: Sentence): CheckFailure | undefined {
  const base = { sentence: sentence.text };
  if (tried.problem) return { ...base, reason: 'error', problem: tried.problem };
  const pick = tried.pick;
  if (!pick) return { ...base, reason: 'none', ...(tried.answer ? { detail: tried.answer } : {}) };
  if (pick.server !== sentence.server || pick.tool !== sentence.tool) return { ...base, reason: 'other', picked: pick.name };
  if (pick.check !== 'ok')
    return { ...base, reason: 'arguments', picked: pick.name, ...(pick.checkText ? { detail: pick.checkText } : {}) };
  return undefined;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('cancelled'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(new Error('cancelled'));
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}
