#!/usr/bin/env node
// The npm mirror reachable here lacks some optional platform binaries (e.g. @tailwindcss/oxide-darwin-x64), so
// `npm install` leaves them out of package-lock.json and `npm ci` then refuses the lock as out of sync. This adds
// a lock entry, with its os/cpu, for every optional dependency the lock names but does not contain, as a lock made
// against the full registry would have. npm ci skips them on this platform, exactly as it would there.
// Run after any `npm install`: node scripts/lock-optional-platforms.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const pkgs = lock.packages;

const OS = {
  darwin: 'darwin',
  linux: 'linux',
  win32: 'win32',
  freebsd: 'freebsd',
  android: 'android',
  wasm32: null,
  openharmony: 'openharmony',
  netbsd: 'netbsd',
  openbsd: 'openbsd',
  sunos: 'sunos',
  aix: 'aix',
};
const CPU = ['x64', 'arm64', 'arm', 'ia32', 'ppc64', 'riscv64', 's390x', 'loong64', 'wasm32', 'mips64el'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => p in OS);
  const cpu = parts.find((p) => CPU.includes(p));
  const libc =
    parts.includes('musl') || parts.includes('musleabihf')
      ? 'musl'
      : parts.includes('gnu') || parts.includes('gnueabihf')
        ? 'glibc'
        : undefined;
  return {
    os: os && OS[os] ? [OS[os]] : undefined,
    cpu: cpu === 'wasm32' ? ['wasm32'] : cpu ? [cpu] : undefined,
    libc: libc ? [libc] : undefined,
  };
}

let added = 0;
for (const [path, meta] of Object.entries(pkgs)) {
  for (const [dep, version] of Object.entries(meta.optionalDependencies ?? {})) {
    // Resolution: nested under the parent first, then hoisted to the root.
    const nested = `${path}/node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (pkgs[nested] || pkgs[hoisted]) continue;
    const { os, cpu, libc } = platformOf(dep);
    pkgs[hoisted] = {
      version,
      ...(meta.dev ? { dev: true } : {}),
      optional: true,
      ...(os ? { os } : {}),
      ...(cpu ? { cpu } : {}),
      ...(libc ? { libc } : {}),
    };
    added += 1;
  }
}
if (added) {
  lock.packages = Object.fromEntries(
    Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
  );
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
}
console.log(`lock-optional-platforms: added ${added} unreachable optional platform entr${added === 1 ? 'y' : 'ies'}`);
