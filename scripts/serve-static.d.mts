// Types of scripts/serve-static.mjs for the TypeScript that imports it (its tests).
import type { Server } from 'node:http';

export interface StaticServerOptions {
  dir: string;
  /** forwards /api/*, /runtime-config.json and /json/config.json there; its page headers are copied */
  proxy?: string;
  log?: boolean;
}

export function createStaticServer(options: StaticServerOptions): Server;
export function parseArgs(argv: string[]): { dir?: string; port?: number; host?: string; proxy?: string };
export function acceptsGzip(header: string | undefined): boolean;
