// Lets '@app/shared/admin' resolve (no package exports): the calls of 系统管理 and 个人设置.
export * from './src/admin';
