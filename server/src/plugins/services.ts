// Builds the 云文档 services once and seeds the database (first start, idempotent).
import { seed, type BootstrapResult } from '../db/seed';
import { globalPlugin } from '../lib/plugin';
import { createServices, type Services } from '../services';
import { S3Store } from '../modules/storage';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    /** what seeding did on this start (the generated admin password, printed once) */
    bootstrap: BootstrapResult;
  }
}

export const servicesPlugin = globalPlugin('yunwendang-services', async (app) => {
  const services = createServices(app.db, app.config);
  // an S3 bucket is made on the first start; wrong keys or an unreachable store stop the start here
  const store = services.objects;
  if (store instanceof S3Store) await store.ensureBucket();
  app.log.info(`云文档文件内容存放于${store.where}`);
  // beside other live instances only when they can share the work (key, contents, database)
  await services.instances.start();
  app.addHook('onClose', async () => services.instances.stop());
  app.decorate('services', services);
  app.decorate('bootstrap', await seed(app.db, services, app.config));
});
