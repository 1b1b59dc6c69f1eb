/**
 * Writes src/client/lib/tw-merge-config.ts: tailwind-merge's default configuration cut down to the class groups
 * the app's own classes belong to (about 100 of its 380), so `cn()` ships a fraction of the default's code and
 * builds a fraction of its class map on the first call (both on the first screen of every page that uses a
 * component). The groups are copied from the default, not rewritten: each keeps its own matchers and conflicts.
 * The classes are the candidates Tailwind's own scanner finds in src/client, those the default configuration
 * recognises. src/client/lib/utils.test.ts proves the cut-down merge equal to the default on every pair of them,
 * and fails, naming this script, when a class of a group left out appears in the code.
 * Usage: node scripts/tw-merge-config.mjs
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Scanner } from '@tailwindcss/oxide';
import { getDefaultConfig, validators } from 'tailwind-merge';
import { createClassGroupUtils, createParseClassName } from 'tailwind-merge/unstable-do-not-import';

const ROOT = new URL('..', import.meta.url).pathname;
const OUT = join(ROOT, 'src/client/lib/tw-merge-config.ts');

/**
 * The app's classes that tailwind-merge's default configuration recognises, with the group of each. `root` is the
 * repository (a test passes its working directory: under Vitest's browser-like environments import.meta.url is not a
 * file's URL).
 */
export function appClassGroups(root = ROOT) {
  const candidates = new Scanner({
    sources: [
      { base: join(root, 'src/client'), pattern: '**/*', negated: false },
      // Not the written configuration itself: its strings are group names and values, not the app's classes.
      { base: join(root, 'src/client/lib'), pattern: 'tw-merge-config.ts', negated: true },
    ],
  }).scan();
  const config = getDefaultConfig();
  const { getClassGroupId } = createClassGroupUtils(config);
  const parse = createParseClassName(config);
  const groups = new Map();
  for (const candidate of candidates) {
    const parsed = parse(candidate);
    if (parsed.isExternal) continue;
    let id = getClassGroupId(parsed.baseClassName);
    if (!id && parsed.maybePostfixModifierPosition) {
      id = getClassGroupId(parsed.baseClassName.substring(0, parsed.maybePostfixModifierPosition));
    }
    if (id) groups.set(candidate, id);
  }
  return groups;
}

const validatorNames = new Map(Object.entries(validators).map(([name, fn]) => [fn, name]));

/** The theme key a `fromTheme(key)` getter reads (it is a closure over the key). */
function themeKey(getter) {
  let key;
  getter(new Proxy({}, { get: (_, k) => ((key = k), undefined) }));
  return key;
}

function source(value, themeKeys) {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') {
    if (validatorNames.has(value)) return `v.${validatorNames.get(value)}`;
    if (value.isThemeGetter) {
      const key = themeKey(value);
      themeKeys.add(key);
      return `fromTheme(${JSON.stringify(key)})`;
    }
    throw new Error(
      `a function in tailwind-merge's default configuration that is neither a validator nor a theme getter`,
    );
  }
  if (Array.isArray(value)) return `[${value.map((v) => source(v, themeKeys)).join(', ')}]`;
  return `{ ${Object.entries(value)
    .map(([k, v]) => `${JSON.stringify(k)}: ${source(v, themeKeys)}`)
    .join(', ')} }`;
}

function main() {
  const config = getDefaultConfig();
  const used = new Set(appClassGroups().values());
  // In the default's order: where two groups could match a class, the first defined wins.
  const ids = Object.keys(config.classGroups).filter((id) => used.has(id));
  const themeKeys = new Set();
  const groups = ids.map((id) => `    ${JSON.stringify(id)}: ${source(config.classGroups[id], themeKeys)},`);
  const pick = (record) =>
    Object.entries(record)
      .filter(([id]) => used.has(id))
      .map(([id, others]) => [id, others.filter((o) => used.has(o))])
      .filter(([, others]) => others.length)
      .map(([id, others]) => `    ${JSON.stringify(id)}: ${JSON.stringify(others)},`);
  // Theme values can hold theme getters too (none today): a Set's loop also visits the keys added while it runs.
  const theme = [];
  for (const key of themeKeys) theme.push(`    ${JSON.stringify(key)}: ${source(config.theme[key], themeKeys)},`);
  const text = `// Written by scripts/tw-merge-config.mjs (run it again when utils.test.ts asks): tailwind-merge's default
// configuration, only the ${ids.length} class groups (of ${Object.keys(config.classGroups).length}) that the app's classes belong to.
import { fromTheme, validators as v, type Config } from 'tailwind-merge';

export const twMergeConfig = (): Config<string, string> => ({
  cacheSize: ${config.cacheSize},
  theme: {
${theme.join('\n')}
  },
  classGroups: {
${groups.join('\n')}
  },
  conflictingClassGroups: {
${pick(config.conflictingClassGroups).join('\n')}
  },
  conflictingClassGroupModifiers: {
${pick(config.conflictingClassGroupModifiers).join('\n')}
  },
  postfixLookupClassGroups: ${JSON.stringify((config.postfixLookupClassGroups ?? []).filter((id) => used.has(id)))},
  orderSensitiveModifiers: ${JSON.stringify(config.orderSensitiveModifiers)},
});
`;
  writeFileSync(OUT, text);
  console.log(`${OUT}: ${ids.length} class groups`);
}

if (process.argv[1] === new URL(import.meta.url).pathname) main();
