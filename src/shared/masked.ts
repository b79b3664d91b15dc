/**
 * The marker the engine puts where it masked a secret (`wss://…/?token=eyJh…(redacted)`, an env
 * value, a header, the local server's token). It travels as is: a value sent back still carrying it
 * tells the engine to keep the real one. Windows show it in their own language (renderer/masked.ts).
 */
export const MASK_MARKER = '…(redacted)';
