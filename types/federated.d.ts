// Ids of the modules that remotes expose through Module Federation; resolved at run time
// by the shell, and to the remote's sources by Jest's moduleNameMapper.
declare module '*.module.css' {
  const classes: Record<string, string>;
  export default classes;
}
declare module '*.css';
declare module '*.svg' {
  const url: string;
  export default url;
}
declare const __APP_VERSION__: string;
