// Ids are database integers, numeric strings in JSON (api-contract.md, "Files and folders").

export const ID_PATTERN = '^[0-9]{1,15}$';

/** The id as a number, or null when the text is not an id we could have issued. */
export function parseId(text: string | number | null | undefined): number | null {
  if (typeof text === 'number') return Number.isSafeInteger(text) && text > 0 ? text : null;
  if (typeof text !== 'string' || !/^[0-9]{1,15}$/.test(text)) return null;
  const n = Number(text);
  return n > 0 ? n : null;
}

