// Lets '@app/shared/test' resolve: test helpers of 云文档.
export * from './src/test';
