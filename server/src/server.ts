// Starts the 云文档 server: reads the configuration, builds the app, listens, prints the
// address (and, once, a generated administrator password) and closes cleanly on SIGINT or
// SIGTERM.
import { buildApp, type App } from './app';
import { ConfigError, loadConfig } from './config';

function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

async function main(): Promise<void> {
  let app: App | undefined;
  try {
    const config = loadConfig();
    app = await buildApp(config);
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    console.log(`云文档已启动：http://${displayHost(config.host)}:${port}/`);
    console.log(`数据库：${config.databaseUrl ? 'PostgreSQL' : `SQLite（${config.dataDir}）`}；文件内容：${app.services.objects.where}；模式：${config.mode === 'simple' ? '简易（仅文件摆渡）' : '完整'}`);
    const { generatedAdminPassword, adminUserName } = app.bootstrap;
    if (generatedAdminPassword) {
      console.log(`已创建管理员账号 ${adminUserName}，初始密码：${generatedAdminPassword}`);
      console.log('该密码只显示这一次，请妥善保存；也可以在首次启动前通过 ADMIN_PASSWORD 指定。');
    }
  } catch (err) {
    const message = err instanceof ConfigError ? err.message : err instanceof Error ? err.message : String(err);
    console.error(`云文档启动失败：${message}`);
    if (!(err instanceof ConfigError) && err instanceof Error && err.stack) console.error(err.stack);
    await app?.close().catch(() => {});
    process.exitCode = 1;
    return;
  }

  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) {
      console.error('再次收到退出信号，立即退出。');
      process.exit(1);
    }
    closing = true;
    console.log(`收到 ${signal}，正在关闭云文档服务……`);
    const timer = setTimeout(() => {
      console.error('关闭超时，强制退出。');
      process.exit(1);
    }, 10_000);
    timer.unref();
    app!
      .close()
      .then(() => {
        console.log('云文档服务已关闭。');
        process.exit(0);
      })
      .catch((err: unknown) => {
        console.error(`关闭时出错：${err instanceof Error ? err.message : String(err)}`);
        process.exit(1);
      });
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

void main();
