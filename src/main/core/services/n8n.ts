import type { z } from 'zod';

import { isRecord } from '../../../shared/is-record';
import type { N8nSettingsSchema } from '../../../shared/settings';
import { inputsSchema, type ServiceContext, type ServiceTool, shapedAnswer, textAnswer } from './service-tools';

type N8nSettings = z.output<typeof N8nSettingsSchema>;

/**
 * An n8n workflow started by its Webhook node (docs.n8n.io, "Webhook node"): the production URL
 * (`…/webhook/<path>`), the arguments as the JSON body of a POST (or the query of a GET), header
 * auth as the header the node's credential names; the answer is what the workflow responds
 * (the last node's data, "Respond to Webhook", `{"message":"Workflow was started"}`, or nothing at
 * all: "no response body").
 */
export function n8nTools(settings: N8nSettings, context: ServiceContext): ServiceTool[] {
  const declared = settings.inputs.length > 0;
  return [
    {
      tool: {
        name: settings.tool,
        description: settings.description || context.say('voice.service.n8nDescription'),
        // Without declared inputs, any arguments the model sends go to the workflow as they are.
        inputSchema: declared ? inputsSchema(settings.inputs) : { type: 'object', properties: {}, additionalProperties: true },
      },
      call: async (args, options) => {
        const url = new URL(settings.url);
        if (settings.method === 'GET')
          for (const [name, value] of Object.entries(args))
            if (value !== undefined && value !== null)
              url.searchParams.set(name, typeof value === 'string' ? value : JSON.stringify(value));
        const answer = await context.http.send(
          {
            method: settings.method,
            url: url.toString(),
            headers: settings.headers,
            ...(settings.method === 'POST' ? { body: args } : {}),
          },
          options,
        );
        // "When last node finishes" with no response body: an empty 200 means the workflow ran.
        if (answer.text.trim() === '') return textAnswer(context.say('voice.service.ran', { platform: context.http.platform }));
        // "Immediately": n8n's own `{"message":"Workflow was started"}`, said as its words.
        const only = answer.json;
        if (!settings.result && isRecord(only) && Object.keys(only).length === 1 && typeof only.message === 'string')
          return textAnswer(only.message);
        return textAnswer(shapedAnswer(answer, settings.result, context));
      },
    },
  ];
}
