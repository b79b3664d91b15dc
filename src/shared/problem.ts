import { z } from 'zod';

/**
 * Why something failed, as a code with parameters, so each UI words it in its own language (the
 * English text stays in `lastError` for logs and the CLI). Codes are open strings on the wire: a UI
 * that does not know a code shows the English text instead.
 */
export const ProblemSchema = z.object({
  code: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).default({}),
});

export type Problem = z.infer<typeof ProblemSchema>;

/** The codes the engine sends today; `problem.<code>` (and `.hint`) exist in every dictionary. */
export const PROBLEM_CODES = [
  'net.dns',
  'net.refused',
  'net.timeout',
  'net.reset',
  'net.unreachable',
  'net.tls',
  'http.unauthorized',
  'http.forbidden',
  'http.notFound',
  'http.status',
  // A site refused for now: too many requests (429, a rate limit or quota), named in a failed call's text.
  'http.tooMany',
  'endpoint.closed',
  'endpoint.idle',
  'endpoint.tokenRejected',
  'endpoint.noPong',
  'endpoint.tooBig',
  // The other side broke the WebSocket protocol (an unknown frame, a close code no peer may send).
  'endpoint.badFrame',
  // The address answered, but not as a WebSocket endpoint does (not HTTP at all, or a web page): another program.
  'endpoint.notXiaozhi',
  // Saved twice (the same address and token): the later one is not connected.
  'endpoint.duplicate',
  // Another connection took the endpoint (the relay closed ours: 1000 新连接替换); a copy of ours is named.
  'endpoint.replaced',
  'endpoint.replacedByApp',
  'endpoint.replacedByRun',
  // The self-hosted relay forgot this connection (another one to the endpoint closed): connected again.
  'endpoint.forgotten',
  // The endpoint was free again after another program held it: connecting.
  'endpoint.free',
  // Another copy of ours started serving this endpoint (the two push each other out); a relay routes to us again.
  'endpoint.alsoServedByApp',
  'endpoint.alsoServedByRun',
  'endpoint.oursAgain',
  // An endpoint is served more tools or bytes than the budget xiaozhi handles.
  'endpoint.overBudget',
  // The link's retry, logged with its failure as the cause (worded in the logs page and the CLI).
  'endpoint.retrying',
  'endpoint.connecting',
  'endpoint.connected',
  'server.notFound',
  'server.packageNotFound',
  'server.interpreterMissing',
  'server.notExecutable',
  'server.cwdMissing',
  'server.exitedEarly',
  'server.exited',
  'server.killed',
  'server.startTimeout',
  'server.closed',
  'server.pingFailed',
  'server.authRefused',
  // Sign-in (OAuth) of a remote server: what stops it until the user signs in, and why a sign-in failed.
  'server.needsSignIn',
  'server.signInAgain',
  'server.signInFailed',
  'server.protocolUnsupported',
  'server.badUrl',
  'server.badHeader',
  'server.crashed',
  'server.systemLimit',
  'server.outputOverflow',
  'server.eventTooBig',
  'server.answerTooBig',
  'server.outputHeld',
  'server.notReading',
  'server.badInitialize',
  'server.runtimeMissing',
  'server.runtimeDownloadFailed',
  'server.runtimeMismatch',
  'server.runtimeFolderUnsafe',
  'server.registryUnreachable',
  // What a server's log lines say happened (worded in the logs page like a problem; no hint).
  'server.running',
  'server.installing',
  'server.fetchingRuntime',
  'server.runtimeReady',
  'server.restarting',
  'server.crashLoop',
  'server.notRetrying',
  'server.toolsLeftOut',
  'call.unknownTool',
  'call.badArguments',
  'call.toolOff',
  'call.notConfigured',
  'call.unavailable',
  'call.cancelled',
  'call.timeout',
  'call.failed',
  'call.refused',
  'call.held',
  // A web service (service-settings.ts): HTTP status and the platform's own message, worded for the model too.
  'service.http',
  'service.refused',
  'service.notJson',
  'service.redirect',
  'service.setup',
  // Why a web service could not be set up, each worded in both languages (not an English detail).
  'service.setup.notOpenApi',
  'service.setup.noServer',
  'service.setup.noScheme',
  'service.setup.noOperation',
  'service.setup.noFile',
  'service.setup.cannotRead',
  'service.setup.notParsed',
  'service.setup.tooLarge',
  'service.setup.noAction',
  'service.setup.documentTooBig',
  'service.noEntity',
  'service.runFailed',
  'service.noOutput',
  'service.badArgument',
  'service.tooBig',
  'service.unreachable',
  'service.noHost',
  'service.badUrl',
  'service.badHeader',
  'service.tooManyRedirects',
  'service.noAnswer',
  // What the headless CLI logs of its own (worded in its text log; its JSON log keeps the English and the code).
  'cli.noEndpoint',
  'cli.webExposed',
  'cli.stopping',
  'cli.signal',
  'cli.launcherGone',
  'cli.launcherGoneAtStart',
  'cli.crashed',
  'cli.killingNow',
  // `run`'s first line (version, pid, config) and a config with secrets that other users can read.
  'cli.started',
  'cli.readableByOthers',
  // `run` without --fetch-runtimes: a server's runtime is not on PATH (`reason`: the sources' advice, official…).
  'cli.runtimeMissing',
  // A save of the config: made it 0600 (others could read or change it), found it changed by another program, failed.
  'cli.madePrivate',
  'cli.changedElsewhere',
  'cli.saveFailed',
  // A config file that is not JSON (its place is said by the CLI; `error` is jsonc-parser's code).
  'config.invalidJson',
  'config.empty',
  // A value the settings schema refused (`reason`: required, oneOf, type…; worded by zod-issue.ts's issueWords).
  'config.invalidValue',
  // A key of our own file that is not a setting (ignored), and the setting it may be.
  'config.unknownKey',
  'config.unknownKeyNear',
  // A file of our own a newer app wrote (its settings version above the one this app reads).
  'config.newerVersion',
  // A server entry of another app's file with neither a command nor a url.
  'config.noCommandOrUrl',
  // The local MCP server could not listen.
  'localServer.portInUse',
  'localServer.notAnAddress',
  'localServer.portDenied',
  // The app's own log lines, worded in the window's language (issue 33).
  'log.starting',
  'log.toolListChanged',
  'log.localListening',
  // "Test connection"'s line: its `reason` (unreachable, refused, listed…) says what it found, its cause why.
  'log.connectionTest',
  // An import applied: how many servers were added, replaced and skipped, and endpoints added.
  'log.imported',
  // The bridge stopped; an endpoint's connection closed after it had been up a while (its cause: why).
  'log.stopped',
  'log.closedAfter',
  // The catalogue could not read the MCP registry (`error`: why; `reason`: cached, or only the shipped list).
  'log.registryUnreadable',
  // The app made a confirmation PIN ("ask first" needs one); `reason`: where the person finds it (settings, configFile).
  'log.pinMade',
  // The updater: up to date, a version to install by hand, downloading, downloaded, restarting to install.
  'log.update.upToDate',
  'log.update.byHand',
  'log.update.downloading',
  'log.update.downloaded',
  'log.update.restarting',
  // A sign-in to a remote server finished.
  'log.signedIn',
  // A call that outlasted its time limit, or failed (`detail`: the server's own words).
  'log.callTimedOut',
  'log.callFailed',
  // Why the online catalogue could not be read (the log line's cause, and the catalogue's `refreshProblem`).
  'catalogue.offline',
  'catalogue.refused',
  'catalogue.timedOut',
  'catalogue.httpStatus',
  'catalogue.badAnswer',
  'catalogue.unreadable',
  // A stdio server printed a line on stdout that is not JSON-RPC (`error`: the line).
  'log.stdoutNotJson',
  // The chat model of "Try a sentence" (and sampling by voice): why it could not answer.
  'model.notConfigured',
  'model.badKey',
  'model.rateLimited',
  'model.contextTooLong',
  'model.noSuchModel',
  'model.noToolSupport',
  'model.unreachable',
  'model.timeout',
  'model.failed',
  'model.cancelled',
  'model.sessionGone',
  'other',
] as const;

export type ProblemCode = (typeof PROBLEM_CODES)[number];

export const problem = (code: ProblemCode, params: Record<string, string | number> = {}): Problem => ({ code, params });
