import { z } from 'zod';

import { lazySchema } from './lazy-schema';
import { ProblemSchema } from './problem';

/** What "Test connection" found: each step of connecting once to an endpoint, and how long it took. */
export const EndpointTestSchema = lazySchema(() =>
  z.object({
    /** The endpoint answered at all (a WebSocket upgrade, or an HTTP refusal). */
    reachable: z.boolean(),
    /** It took the token: the WebSocket opened. */
    accepted: z.boolean(),
    /** How many tools xiaozhi read when it asked for the list; absent if it did not ask in time. */
    toolsListed: z.number().int().optional(),
    /** Of those, the person's own (the app's own tools not counted), as every page counts them. */
    userTools: z.number().int().optional(),
    /** How long the list took to be asked for, or how long until the test failed. */
    durationMs: z.number(),
    /** Seconds we waited for xiaozhi to ask for the tools. */
    waitedSeconds: z.number(),
    /** The tools were read through a self-hosted relay's xiaozhi side, as a device's session reads them. */
    listedVia: z.enum(['relay']).optional(),
    /**
     * Connected, and not listing is normal for this kind of endpoint: a self-hosted server lists the
     * tools only when a device starts talking.
     */
    note: z.enum(['listsOnDeviceTalk']).optional(),
    error: ProblemSchema.optional(),
    /** The same in English, redacted (for logs and the CLI). */
    errorText: z.string().optional(),
  }),
);

export type EndpointTest = z.infer<typeof EndpointTestSchema>;
