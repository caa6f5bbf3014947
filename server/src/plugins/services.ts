// Builds the 云文档 services once and seeds the database (first start, idempotent).
import { seed, type BootstrapResult } from '../db/seed';
import { globalPlugin } from '../lib/plugin';
import { createServices, type Services } from '../services';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    /** what seeding did on this start (the generated admin password, printed once) */
    bootstrap: BootstrapResult;
  }
}

export const servicesPlugin = globalPlugin('yunwendang-services', async (app) => {
  const services = createServices(app.db, app.config);
  app.decorate('services', services);
  app.decorate('bootstrap', await seed(app.db, services, app.config));
});
