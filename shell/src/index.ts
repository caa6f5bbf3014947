// main.js: the runtime configuration is requested while the start-up is fetched and run
import { startRuntimeConfigRequest } from './startup/runtimeConfigRequest';

startRuntimeConfigRequest();
import(/* webpackChunkName: "bootstrap" */ './bootstrap');
