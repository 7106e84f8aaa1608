// A User-Agent header, as a person names the browser it came from: "Firefox on Linux", "Safari on iOS", "curl".

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\//, 'Opera'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChrom(?:e|ium)\/|\bCriOS\//, 'Chrome'],
  [/\bSafari\//, 'Safari'],
  [/^curl\//, 'curl'],
  [/\bHeadlessChrome\//, 'Headless Chrome'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bLinux\b/, 'Linux'],
];

/** A short name for `userAgent`; the header itself (cut to 60 characters) when it names no known browser. */
export function describeUserAgent(userAgent: string | null): string {
  if (!userAgent) return 'Unknown client';
  // HeadlessChrome also says Chrome; it is named for what it is.
  const browser = /\bHeadlessChrome\//.test(userAgent) ? 'Headless Chrome' : BROWSERS.find(([re]) => re.test(userAgent))?.[1];
  if (!browser) return userAgent.length > 60 ? `${userAgent.slice(0, 59)}…` : userAgent;
  const system = SYSTEMS.find(([re]) => re.test(userAgent))?.[1];
  return system ? `${browser} on ${system}` : browser;
}
