// A short Chinese-readable name of the browser and system behind a User-Agent, for 我的会话.
const BROWSERS: [RegExp, string][] = [
  [/DingTalk/i, '钉钉'],
  [/MicroMessenger/i, '微信'],
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\//, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/Chrom(e|ium)\//, 'Chrome'],
  [/Safari\//, 'Safari'],
  [/node|undici|axios|curl/i, '程序调用'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Windows/, 'Windows'],
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

export function deviceOf(userAgent: string): string {
  const browser = BROWSERS.find(([re]) => re.test(userAgent))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(userAgent))?.[1];
  if (!browser && !system) return '未知设备';
  return [browser, system].filter(Boolean).join(' · ');
}
