import { z } from 'zod';

/**
 * A value sent in an HTTP header (a header of a remote server, a web service's token or key): one line.
 * The window's inputs drop line breaks, but the API and config files can carry them, and Node then
 * fails the request with "Invalid character in header content"; refused where it is saved instead.
 */
export const oneLine = (value: string): boolean => !/[\r\n\0]/.test(value);
export const ONE_LINE_RULE = 'must be on one line: a line break (or a NUL) cannot be sent in an HTTP header';

/**
 * Its ends trimmed first, as HTTP trims a field value (RFC 9110 5.5) and fetch does: a token pasted with its
 * line end (or stored so by an earlier build) is that token, not a reason to refuse, nor to set the whole
 * desktop store aside on upgrade. A line break inside is refused.
 */
export const HeaderValueSchema = z.string().trim().refine(oneLine, ONE_LINE_RULE);
export const HeadersSchema = z.record(z.string(), HeaderValueSchema);
