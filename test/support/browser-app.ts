import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { Harness } from './harness';

/** The service on a local port with Debian's Chromium beside it, for the dashboard's browser tests. */
export interface BrowserApp {
  h: Harness;
  browser: Browser;
  origin: string;
  stop(): Promise<void>;
}

export async function startBrowserApp(): Promise<BrowserApp> {
  const h = await Harness.start();
  const server = await new Promise<Server>((resolve) => {
    const s = h.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  return {
    h,
    browser,
    origin,
    async stop() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
      await h.stop();
    },
  };
}
