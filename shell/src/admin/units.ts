// Sizes typed by administrators in GB and kept by the server in bytes.
import { BYTE_BASE } from '@app/shared';

export const GB = BYTE_BASE ** 3;

/** GB as whole bytes. */
export const gbToBytes = (gb: number) => Math.round(gb * GB);

/** Bytes in GB, rounded to `decimals` places (two unless told). */
export const bytesToGb = (bytes: number, decimals = 2) => {
  const scale = 10 ** decimals;
  return Math.round((bytes / GB) * scale) / scale;
};
