import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

import { own } from '../../../shared/own';
import type { HttpApiSettingsSchema } from '../../../shared/settings';
import { redactText } from '../logs/redact';
import { serviceSecretValues } from '../secrets/service-secrets';
import { joinUrl } from './service-http';
import { webUrl } from './service-problems';
import {
  bodyPlaceholders,
  fillBody,
  fillText,
  fillUrl,
  placeholders,
  type ServiceContext,
  type ServiceTool,
  shapedAnswer,
  textAnswer,
} from './service-tools';

type HttpApiSettings = z.output<typeof HttpApiSettingsSchema>;
type RequestTool = HttpApiSettings['tools'][number];

/** Methods whose arguments not placed elsewhere go in the query; the others send them as the JSON body. */
const QUERY_METHODS = new Set(['GET', 'DELETE']);

/** One required text argument per `{placeholder}` of the URL, query, headers and body, when no schema is given. */
function derivedSchema(tool: RequestTool): Tool['inputSchema'] {
  const names = new Set([
    ...placeholders(tool.url),
    ...Object.values(tool.query).flatMap(placeholders),
    ...Object.values(tool.headers).flatMap(placeholders),
    ...bodyPlaceholders(tool.body),
  ]);
  const properties = Object.fromEntries([...names].map((name) => [name, { type: 'string' }]));
  return { type: 'object', properties, ...(names.size > 0 ? { required: [...names] } : {}) };
}

/** A user's own requests, each a tool: the URL, query, headers and body filled from the arguments. */
export function httpApiTools(settings: HttpApiSettings, context: ServiceContext): ServiceTool[] {
  const secrets = serviceSecretValues(settings);
  return settings.tools.map((spec) => {
    const inputSchema = (spec.inputSchema as Tool['inputSchema'] | undefined) ?? derivedSchema(spec);
    // Without a description the model cannot tell what a tool does: its request says a little (never its query or a token).
    const description = spec.description.trim() || redactText(`${spec.method} ${spec.url.split('?')[0]}`, secrets);
    const tool: Tool = { name: spec.name, description, inputSchema };
    return {
      tool,
      call: async (args, options) => {
        const used = new Set([...placeholders(spec.url), ...Object.values(spec.query).flatMap(placeholders)]);
        const path = fillUrl(spec.url, args, context.http.platform);
        const url = webUrl(
          context.http.platform,
          /^[a-z][a-z0-9+.-]*:/i.test(path) || !settings.baseUrl ? path : joinUrl(settings.baseUrl, path),
        );
        for (const [name, template] of Object.entries(spec.query)) {
          // A parameter that is only an argument the model left out is not sent at all.
          const only = /^\{([A-Za-z0-9_.-]+)\}$/.exec(template);
          if (only && own(args, only[1] as string) === undefined) continue;
          url.searchParams.set(name, fillText(template, args));
        }
        const headers = {
          ...settings.headers,
          ...Object.fromEntries(Object.entries(spec.headers).map(([k, v]) => [k, fillText(v, args)])),
        };
        for (const name of Object.values(spec.headers).flatMap(placeholders)) used.add(name);
        let body: unknown;
        if (spec.body !== undefined) body = fillBody(spec.body, args);
        else {
          const rest = Object.fromEntries(Object.entries(args).filter(([name]) => !used.has(name)));
          if (QUERY_METHODS.has(spec.method)) {
            for (const [name, value] of Object.entries(rest))
              if (value !== undefined && value !== null)
                url.searchParams.set(name, typeof value === 'string' ? value : JSON.stringify(value));
          } else body = rest;
        }
        const answer = await context.http.send({ method: spec.method, url: url.toString(), headers, body }, options);
        // An empty answer (204) still tells the model it worked, as an OpenAPI operation's does.
        return textAnswer(shapedAnswer(answer, spec.result, context) || context.say('voice.service.done'));
      },
    };
  });
}
