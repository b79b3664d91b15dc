import type { modelCommands, SentenceTry } from '../../../../shared/model-api';
import { isMaskedKey, type ModelSettings, SamplingBoundsSchema } from '../../../../shared/model-settings';
import { nameRecord, own, setOwn } from '../../../../shared/own';
import { problem } from '../../../../shared/problem';
import type { Settings } from '../../../../shared/settings';
import { maskSecret } from '../../logs/redact';
import { cleanDescription, servedBytes, suggestDescription, SUGGESTED_MAX_CHARS } from '../../models/description-suggestion';
import { ModelError } from '../../models/model-problems';
import type { ModelRoom } from '../../models/model-room';
import { checkPlan, checkSentences } from '../../models/sentence-checks';
import type { CommandHandlers, SettingsAccess } from './command-handlers';

/** A failure of ours to ask the model, as an answer the window words (never a thrown English message). */
const asProblem = (error: unknown) =>
  error instanceof ModelError
    ? error.problem
    : problem('model.failed', { status: 0, detail: error instanceof Error ? error.message : String(error) });

/** The model as chosen in the window: a changed provider starts without the other's key, address and model unless given. */
function chosenModel(
  input: Parameters<CommandHandlers<typeof modelCommands>['setModel']>[0],
  before: ModelSettings | undefined,
): ModelSettings {
  const kept = before?.provider === input.provider ? before : undefined;
  const pick = <T>(given: T | null | undefined, old: T | undefined): T | undefined => (given === null ? undefined : (given ?? old));
  let apiKey = pick(input.apiKey, kept?.apiKey);
  // The window sent back the masked key it was shown: the real one stays.
  if (apiKey !== undefined && isMaskedKey(apiKey)) {
    if (before?.apiKey !== undefined && apiKey === maskSecret(before.apiKey)) apiKey = before.apiKey;
    else throw new Error('The API key is still masked; type it again');
  }
  const baseUrl = pick(input.baseUrl, kept?.baseUrl);
  const model = pick(input.model, kept?.model);
  const stream = input.stream ?? kept?.stream;
  return {
    provider: input.provider,
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(stream !== undefined ? { stream } : {}),
    // Consent carries over from the model before: it is the user's, not the provider's.
    sampling: SamplingBoundsSchema.parse({ ...before?.sampling, ...input.sampling }),
  };
}

/** The commands of "Try a sentence": the model, sentences tried and checked, a shorter description. */
export function modelCommandHandlers(c: SettingsAccess & { room: ModelRoom }): CommandHandlers<typeof modelCommands> {
  const { room } = c;
  const noModel = (): SentenceTry => ({
    mode: 'all',
    functions: 0,
    bytes: 0,
    finds: [],
    requests: 0,
    problem: problem('model.notConfigured'),
  });
  return {
    setModel: async (input) => c.commit({ ...c.settings(), model: chosenModel(input, c.settings().model) }),
    removeModel: async () => {
      const { model: _gone, ...rest } = c.settings();
      c.commit(rest as Settings);
    },
    testModel: async () => {
      const client = room.client();
      if (!client) return { problem: problem('model.notConfigured') };
      const started = performance.now();
      try {
        await client.chat({ messages: [{ role: 'user', content: 'ping' }], maxTokens: 8 });
        return { ms: Math.round(performance.now() - started) };
      } catch (error) {
        return { problem: asProblem(error) };
      }
    },
    trySentence: async ({ sentence, run, endpoint }) => {
      const client = room.client();
      if (!client) return noModel();
      const chosen = room.modeOf(endpoint);
      return room.trial.try(client, sentence, chosen.mode, {
        run: run === true,
        ...(chosen.endpoint ? { endpoint: chosen.endpoint } : {}),
      });
    },
    confirmSentence: async ({ session, pin }) => room.trial.confirm(session, pin),
    setToolSentences: async ({ server, tool, sentences }) => {
      const settings = c.settings();
      const kept = sentences.map((s) => s.trim()).filter(Boolean);
      // Keyed by server and tool names from outside: records without a prototype.
      const sets = nameRecord(
        Object.entries(settings.sentences).map(([name, tools]) => [name, nameRecord(Object.entries(tools))] as const),
      );
      const tools = own(sets, server) ?? nameRecord<string[]>();
      if (kept.length > 0) setOwn(tools, tool, kept);
      else delete tools[tool];
      if (Object.keys(tools).length > 0) setOwn(sets, server, tools);
      else delete sets[server];
      c.commit({ ...settings, sentences: sets });
    },
    planSentenceCheck: async ({ endpoint }) => {
      const client = room.client();
      return {
        ...checkPlan({ catalogs: room.catalogs }, room.modeOf(endpoint).mode, c.settings().sentences),
        ...(c.settings().model ? { provider: c.settings().model?.provider } : {}),
        ...(client ? { model: client.model } : {}),
      };
    },
    checkSentences: async ({ endpoint, server, tool }) => {
      const client = room.client();
      if (!client) return { tools: [], requests: 0, cancelled: false, problem: problem('model.notConfigured') };
      if (room.checking) throw new Error('A check is already running');
      const controller = new AbortController();
      room.checking = controller;
      room.progress({ done: 0, total: 0, running: true });
      try {
        return await checkSentences(
          { trial: room.trial, hub: room.hub, catalogs: room.catalogs },
          client,
          room.modeOf(endpoint).mode,
          c.settings().sentences,
          {
            signal: controller.signal,
            only: { server, tool },
            onProgress: (done, total) => room.progress({ done, total, running: true }),
          },
        );
      } finally {
        room.checking = undefined;
        room.progress({ done: 0, total: 0, running: false });
      }
    },
    cancelSentenceCheck: async () => {
      room.checking?.abort();
    },
    suggestDescription: async ({ endpoint, server, tool, sentences }) => {
      const client = room.client();
      if (!client) return { problem: problem('model.notConfigured') };
      const { mode } = room.modeOf(endpoint);
      const entry = room.hub
        .forSet(mode.toolSet)
        .catalog()
        .find((t) => t.server === server && t.originalName === tool);
      if (!entry) throw new Error(`No tool "${tool}" of server "${server}" is served now.`);
      const said = sentences ?? own(own(c.settings().sentences, server), tool) ?? [];
      try {
        const description = await suggestDescription(client, entry, said, room.language);
        // An empty answer is no description: said as the model's failure to give one.
        if (cleanDescription(description, SUGGESTED_MAX_CHARS[room.language]) === '')
          return { problem: problem('model.failed', { status: 200, detail: 'empty answer' }) };
        return {
          description: room.redact(description),
          current: room.redact(entry.description),
          currentBytes: entry.bytes,
          newBytes: servedBytes(entry, description),
        };
      } catch (error) {
        return { problem: asProblem(error) };
      }
    },
  };
}
