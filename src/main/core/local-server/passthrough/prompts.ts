import {
  type CompleteRequest,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  McpError,
  type Prompt,
} from '@modelcontextprotocol/sdk/types.js';

import { assignExposedNames, toolKey } from '../../hub/tool-names';
import { pageOver } from './paging';
import { holdsResource, mappedItem, resourceOwners, templateUriOwners } from './resources';
import { ANSWER_TIMEOUT_MS, clipText, passedOn, type SessionContext, supports, type UpstreamServer } from './upstream';
import { ownerOf } from './uri-mapping';

interface NamedPrompts {
  /** By server name, sorted; each prompt under the name the client sees. */
  groups: { server: string; items: Prompt[] }[];
  find(name: string): { server: UpstreamServer; prompt: Prompt } | undefined;
}

/**
 * The set's prompts, named as tools are: a prompt keeps its own (sanitised) name unless another
 * server of the set has one of the same name, then both get their server's prefix.
 */
async function namedPrompts(ctx: SessionContext): Promise<NamedPrompts> {
  const lists = await Promise.all(
    ctx
      .upstreams()
      .filter((server) => supports(server, 'prompts'))
      .map(async (server) => ({ server, prompts: await ctx.lists.get(server, 'prompts') })),
  );
  const names = assignExposedNames(
    lists.flatMap((l) => l.prompts.map((p) => ({ server: l.server.name, tool: p.name }))),
    false,
  );
  const byName = new Map<string, { server: UpstreamServer; prompt: Prompt }>();
  const groups = lists.map((l) => ({
    server: l.server.name,
    items: l.prompts.map((prompt) => {
      const name = names.get(toolKey(l.server.name, prompt.name)) as string;
      byName.set(name, { server: l.server, prompt });
      return { ...prompt, name };
    }),
  }));
  return { groups, find: (name) => byName.get(name) };
}

export function servePrompts(ctx: SessionContext): void {
  ctx.server.setRequestHandler(ListPromptsRequestSchema, async (request) => {
    const page = pageOver((await namedPrompts(ctx)).groups, request.params?.cursor);
    return { prompts: page.items.map((p) => p.item), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  });

  ctx.server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    const found = (await namedPrompts(ctx)).find(request.params.name);
    if (!found) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${clipText(request.params.name, 200)}`);
    const { server, prompt } = found;
    const args = request.params.arguments;
    const result = await passedOn(() =>
      server.client.getPrompt(
        { name: prompt.name, ...(args ? { arguments: args } : {}) },
        { timeout: ANSWER_TIMEOUT_MS, signal: extra.signal },
      ),
    );
    if (!result.messages.some((m) => holdsResource(m.content))) return result;
    const { owners } = await resourceOwners(ctx);
    return { ...result, messages: result.messages.map((m) => ({ ...m, content: mappedItem(owners, server.name, m.content) })) };
  });

  // Routed to the server whose prompt or resource template it names; one that offers no completion gets none.
  ctx.server.setRequestHandler(CompleteRequestSchema, async (request, extra) => {
    const target = await completionTarget(ctx, request.params.ref);
    if (!target || !supports(target.server, 'completions')) return { completion: { values: [] } };
    const { argument, context } = request.params;
    return passedOn(() =>
      target.server.client.complete(
        { ref: target.ref, argument, ...(context ? { context } : {}) },
        { timeout: ANSWER_TIMEOUT_MS, signal: extra.signal },
      ),
    );
  });
}

type Ref = CompleteRequest['params']['ref'];

async function completionTarget(ctx: SessionContext, ref: Ref): Promise<{ server: UpstreamServer; ref: Ref } | undefined> {
  if (ref.type === 'ref/prompt') {
    const found = (await namedPrompts(ctx)).find(ref.name);
    return found && { server: found.server, ref: { ...ref, name: found.prompt.name } };
  }
  const { owners, lists } = await resourceOwners(ctx);
  const owned = ownerOf(templateUriOwners(lists), ref.uri) ?? ownerOf(owners, ref.uri);
  const server = owned && lists.find((l) => l.server.name === owned.server)?.server;
  return owned && server && { server, ref: { ...ref, uri: owned.uri } };
}
