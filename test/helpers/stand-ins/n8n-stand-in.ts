import { empty, json, record, type StandInRequest, text } from './stand-in-http';

/**
 * n8n's production webhooks as they answer, written from n8n-io/n8n:
 * - packages/nodes-base/nodes/Webhook/Webhook.node.ts: header auth refused is `authorizationError`:
 *   403 "Authorization data is wrong!" as plain text; `responseMode` onReceived ("Immediately":
 *   `{"message":"Workflow was started"}`), lastNode ("When last node finishes") or responseNode
 *   ("Using 'Respond to Webhook' node").
 * - packages/cli/src/webhooks/__tests__/webhook-last-node-response-extractor.test.ts: lastNode with
 *   `responseData` firstEntryJson answers the first item's JSON, allEntries an array (`[]` when none),
 *   noData an empty body.
 * - packages/nodes-base/nodes/RespondToWebhook: `respondWith` text, json, noData… with its own code.
 * - packages/cli/src/errors/response-errors/webhook-not-found.error.ts: 404 `{code, message, hint}`,
 *   "The requested webhook \"POST path\" is not registered." with the production hint "The workflow must
 *   be active for a production URL to run successfully. …"; a registered path asked with another method
 *   says "This webhook is not registered for GET requests. Did you mean to make a POST request?" (no hint).
 * - A lastNode workflow that fails answers 500 `{"message":"Error in workflow"}`.
 */

const PRODUCTION_HINT =
  "The workflow must be active for a production URL to run successfully. You can activate the workflow using the toggle in the top-right of the editor. Note that unlike test URL calls, production URL calls aren't shown on the canvas (only in the executions list)";

interface Webhook {
  method: 'POST' | 'GET';
  /** The header auth credential (name lower-cased, value), if any. */
  auth?: [string, string];
  answer: (req: StandInRequest, data: Record<string, unknown>) => void;
}

export class N8nStandIn {
  private readonly hooks: Map<string, Webhook>;

  constructor(secret: string) {
    this.hooks = new Map<string, Webhook>([
      [
        'lights',
        {
          method: 'POST',
          auth: ['x-n8n-key', secret],
          // lastNode, firstEntryJson.
          answer: (req, data) => json(req.res, 200, { reply: `Turned the ${String(data.room)} lights ${String(data.state)}` }),
        },
      ],
      // onReceived.
      ['started', { method: 'POST', answer: (req) => json(req.res, 200, { message: 'Workflow was started' }) }],
      // lastNode, noData ("no response body").
      ['quiet', { method: 'POST', answer: (req) => empty(req.res) }],
      // Respond to Webhook, respondWith text.
      ['respond', { method: 'POST', answer: (req) => text(req.res, 200, 'OK, the heating is set') }],
      // lastNode, a node of the workflow failed.
      ['failing', { method: 'POST', answer: (req) => json(req.res, 500, { message: 'Error in workflow' }) }],
      // lastNode, firstEntryJson, read by GET with the query as its data.
      ['status', { method: 'GET', answer: (req) => json(req.res, 200, { data: { door: 'closed', query: req.query.get('room') } }) }],
    ]);
  }

  handle(req: StandInRequest): void {
    const { res } = req;
    const path = req.path.replace(/^\/webhook\//, '');
    const hook = this.hooks.get(path);
    if (!hook)
      return json(res, 404, {
        code: 404,
        message: `The requested webhook "${req.method} ${path}" is not registered.`,
        hint: PRODUCTION_HINT,
      });
    if (hook.method !== req.method)
      return json(res, 404, {
        code: 404,
        message: `This webhook is not registered for ${req.method} requests. Did you mean to make a ${hook.method} request?`,
        hint: '',
      });
    if (hook.auth && req.headers[hook.auth[0]] !== hook.auth[1]) return text(res, 403, 'Authorization data is wrong!');
    hook.answer(req, record(req.body));
  }
}
