import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

/** Debian's chromium (installed once by infra/browser/chromium.sh), headless, driven by playwright-core. */
export async function launchChromium(): Promise<Browser> {
  const path = execFileSync('bash', [resolve(import.meta.dirname, '../../infra/browser/chromium.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  return chromium.launch({
    executablePath: path,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
