/**
 * Two tiny HTTP servers on two origins (127.0.0.1 and localhost, different ports) serving the pages a
 * test gives, for capture tests that need exact control over what the page does.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TwoOrigins {
  hostOrigin: string;
  embedOrigin: string;
  close(): Promise<void>;
}
export type Pages = Record<string, string>;

function serve(pages: Pages, host: string): Promise<{ server: Server; origin: string }> {
  return new Promise((resolve) => {
    const server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const body = pages[path];
      if (body === undefined) {
        res.writeHead(404).end('not found');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
    });
    server.listen(0, host, () =>
      resolve({ server, origin: `http://${host}:${(server.address() as AddressInfo).port}` }),
    );
  });
}

/** `host` pages are served from hostOrigin, `embed` pages from embedOrigin; `{{EMBED}}` and `{{HOST}}` are replaced. */
export async function twoOrigins(host: Pages, embed: Pages): Promise<TwoOrigins> {
  const fill = (pages: Pages, h: string, e: string) =>
    Object.fromEntries(
      Object.entries(pages).map(([k, v]) => [k, v.replaceAll('{{EMBED}}', e).replaceAll('{{HOST}}', h)]),
    );
  const hostPages: Pages = {};
  const embedPages: Pages = {};
  const a = await serve(hostPages, '127.0.0.1');
  const b = await serve(embedPages, 'localhost');
  Object.assign(hostPages, fill(host, a.origin, b.origin));
  Object.assign(embedPages, fill(embed, a.origin, b.origin));
  return {
    hostOrigin: a.origin,
    embedOrigin: b.origin,
    close: async () => {
      a.server.closeAllConnections();
      b.server.closeAllConnections();
      await Promise.all([new Promise((r) => a.server.close(r)), new Promise((r) => b.server.close(r))]);
    },
  };
}
