// Lets '@app/shared/ui' resolve (no package exports): the antd pieces of 云文档.
export * from './src/ui';
