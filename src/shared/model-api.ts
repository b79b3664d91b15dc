import { z } from 'zod';

import { lazySchema } from './lazy-schema';
import { MAX_SENTENCES_PER_TOOL, MODEL_PROVIDERS, ModelSettingsSchema, SamplingBoundsSchema } from './model-settings';
import { patchOf } from './patch-schema';
import { ProblemSchema } from './problem';
import { KeyNameSchema, ToolModeSchema } from './settings';

/**
 * The BridgeApi commands of "Try a sentence" (merged into `bridgeCommands`): the chat model, a sentence
 * tried against what an endpoint serves, the sentence sets and their check, a shorter description.
 * A model's failure is an answer (`problem`), never a thrown error: the window words it in its language.
 */
const command = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O) => ({ input, output });

/** Which endpoint's tools (its set and mode); absent: the first endpoint's, or every tool when there is none. */
const EndpointChoice = { endpoint: lazySchema(() => z.string().min(1).max(200).optional()) };
export const MAX_SENTENCE_CHARS = 1000;

/** A find_tools the model made in router mode: its query and the tools it was shown. */
export const SentenceFindSchema = lazySchema(() => z.object({ query: z.string(), found: z.array(z.string()) }));

/** The tool the model picked, with its arguments, and what our argument check says of them. */
export const SentencePickSchema = lazySchema(() =>
  z.object({
    /** The name it called (in router mode, the name it gave call_tool). */
    name: z.string(),
    /** Called directly, or through call_tool (router mode). */
    via: z.enum(['direct', 'call_tool']),
    /** The tool it stands for, when it is one of the endpoint's. */
    server: z.string().optional(),
    tool: z.string().optional(),
    arguments: z.unknown().optional(),
    /** What the model wrote, when it is not a JSON object. */
    argumentsText: z.string().optional(),
    /** `ok`; `refused` with the check's words (as the model would hear them); `unknown`: not a tool it was served. */
    check: z.enum(['ok', 'refused', 'unknown']),
    checkText: z.string().optional(),
  }),
);

/** What running the pick came to (only when the user pressed Run), under the voice policies. */
export const SentenceRunSchema = lazySchema(() =>
  z.object({
    text: z.string(),
    isError: z.boolean(),
    problem: ProblemSchema.optional(),
    /** Held for the person's OK: their PIN (or Allow in the window), or Allow in the window only. */
    held: z.enum(['pin', 'window']).optional(),
  }),
);

export const SentenceTrySchema = lazySchema(() =>
  z.object({
    mode: ToolModeSchema,
    /** The endpoint whose tools were tried (absent: every tool, in all mode). */
    endpoint: z.string().optional(),
    /** How many functions the model was given, and their size as xiaozhi lists them. */
    functions: z.number().int(),
    bytes: z.number().int(),
    finds: z.array(SentenceFindSchema),
    pick: SentencePickSchema.optional(),
    /** What the model said instead of picking a tool. */
    answer: z.string().optional(),
    run: SentenceRunSchema.optional(),
    /** The short text the model says after the result. */
    said: z.string().optional(),
    /** A held call's conversation, to go on with the PIN. */
    session: z.string().optional(),
    problem: ProblemSchema.optional(),
    /** Requests made to the model. */
    requests: z.number().int(),
  }),
);

export const CheckFailureSchema = lazySchema(() =>
  z.object({
    sentence: z.string(),
    /** Another tool, no tool, the right tool with arguments our check refuses, or the model failed. */
    reason: z.enum(['other', 'none', 'arguments', 'error']),
    picked: z.string().optional(),
    detail: z.string().optional(),
    problem: ProblemSchema.optional(),
  }),
);

export const CheckedToolSchema = lazySchema(() =>
  z.object({
    server: z.string(),
    tool: z.string(),
    /** Its exposed name; absent when the endpoint does not serve it (switched off, its server down). */
    name: z.string().optional(),
    total: z.number().int(),
    passed: z.number().int(),
    failures: z.array(CheckFailureSchema),
  }),
);

export const SentenceCheckSchema = lazySchema(() =>
  z.object({
    tools: z.array(CheckedToolSchema),
    requests: z.number().int(),
    cancelled: z.boolean(),
    /** Why nothing was checked (no model). */
    problem: ProblemSchema.optional(),
  }),
);

/** What a check will cost: sentences, model requests, the tool list each carries, tokens about. */
export const SentenceCheckPlanSchema = lazySchema(() =>
  z.object({
    sentences: z.number().int(),
    tools: z.number().int(),
    requests: z.number().int(),
    bytes: z.number().int(),
    tokens: z.number().int(),
    provider: z.enum(MODEL_PROVIDERS).optional(),
    model: z.string().optional(),
  }),
);

export const SentenceCheckProgressSchema = lazySchema(() =>
  z.object({ done: z.number().int(), total: z.number().int(), running: z.boolean() }),
);

export const modelCommands = {
  /**
   * Chooses the chat model: a provider's preset, its address and model unless named (null: the
   * preset's), the API key (absent: kept; null: removed), sampling by voice (off unless said).
   */
  setModel: command(
    lazySchema(() =>
      z.object({
        provider: z.enum(MODEL_PROVIDERS),
        baseUrl: ModelSettingsSchema.shape.baseUrl.unwrap().nullable().optional(),
        model: ModelSettingsSchema.shape.model.unwrap().nullable().optional(),
        apiKey: z.string().trim().min(1).max(4096).nullable().optional(),
        stream: z.boolean().optional(),
        sampling: patchOf(SamplingBoundsSchema).optional(),
      }),
    ),
    lazySchema(() => z.void()),
  ),
  removeModel: command(
    lazySchema(() => z.void()),
    lazySchema(() => z.void()),
  ),
  /** One short request: whether the model answers (and how long it took), or why not. */
  testModel: command(
    lazySchema(() => z.void()),
    lazySchema(() => z.object({ ms: z.number() }).or(z.object({ problem: ProblemSchema }))),
  ),
  /** A sentence as the person would say it: the tool the model picks from what the endpoint serves; `run`: run it too. */
  trySentence: command(
    lazySchema(() =>
      z.object({ sentence: z.string().trim().min(1).max(MAX_SENTENCE_CHARS), run: z.boolean().optional(), ...EndpointChoice }),
    ),
    SentenceTrySchema,
  ),
  /** A held call of a tried sentence, confirmed with the PIN the person would say. */
  confirmSentence: command(
    lazySchema(() => z.object({ session: z.string().min(1).max(100), pin: z.string().min(1).max(64) })),
    SentenceTrySchema,
  ),
  /** A tool's sample sentences (saved with the config; empty: none). */
  setToolSentences: command(
    lazySchema(() =>
      z.object({
        server: KeyNameSchema,
        tool: KeyNameSchema,
        sentences: z.array(z.string().max(500)).max(MAX_SENTENCES_PER_TOOL),
      }),
    ),
    lazySchema(() => z.void()),
  ),
  planSentenceCheck: command(
    lazySchema(() => z.object(EndpointChoice).default({})),
    SentenceCheckPlanSchema,
  ),
  /** Every sentence set (or one tool's) against the model: per tool, how often the right tool was picked with valid arguments. */
  checkSentences: command(
    lazySchema(() => z.object({ ...EndpointChoice, server: KeyNameSchema.optional(), tool: KeyNameSchema.optional() }).default({})),
    SentenceCheckSchema,
  ),
  cancelSentenceCheck: command(
    lazySchema(() => z.void()),
    lazySchema(() => z.void()),
  ),
  /** A shorter, voice-friendly description in the voice language, from the same model; what it would save. */
  suggestDescription: command(
    lazySchema(() =>
      z.object({
        ...EndpointChoice,
        server: KeyNameSchema,
        tool: KeyNameSchema,
        sentences: z.array(z.string().max(500)).max(20).optional(),
      }),
    ),
    lazySchema(() =>
      z
        .object({ description: z.string(), current: z.string(), currentBytes: z.number().int(), newBytes: z.number().int() })
        .or(z.object({ problem: ProblemSchema })),
    ),
  ),
} as const;

export const modelEvents = {
  /** A check's progress: sentences done of all, and whether it still runs. */
  sentenceCheck: SentenceCheckProgressSchema,
} as const;

export type SentenceTry = z.infer<typeof SentenceTrySchema>;
export type SentencePick = z.infer<typeof SentencePickSchema>;
export type SentenceCheck = z.infer<typeof SentenceCheckSchema>;
export type CheckedTool = z.infer<typeof CheckedToolSchema>;
export type CheckFailure = z.infer<typeof CheckFailureSchema>;
export type SentenceCheckPlan = z.infer<typeof SentenceCheckPlanSchema>;
export type SentenceCheckProgress = z.infer<typeof SentenceCheckProgressSchema>;
