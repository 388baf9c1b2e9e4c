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

export interface ThreeOrigins extends TwoOrigins {
  /** A third origin (127.0.0.2): a third party's frame, an ad, a compromised widget. */
  thirdOrigin: string;
}

/**
 * As `twoOrigins`, and `third` pages served from a third origin on 127.0.0.2 (`{{THIRD}}` is replaced everywhere
 * too).
 */
export async function threeOrigins(host: Pages, embed: Pages, third: Pages): Promise<ThreeOrigins> {
  const thirdPages: Pages = {};
  const t = await serve(thirdPages, '127.0.0.2');
  const fill = (pages: Pages): Pages =>
    Object.fromEntries(Object.entries(pages).map(([k, v]) => [k, v.replaceAll('{{THIRD}}', t.origin)]));
  const two = await twoOrigins(fill(host), fill(embed));
  Object.assign(
    thirdPages,
    Object.fromEntries(
      Object.entries(third).map(([k, v]) => [
        k,
        v
          .replaceAll('{{THIRD}}', t.origin)
          .replaceAll('{{HOST}}', two.hostOrigin)
          .replaceAll('{{EMBED}}', two.embedOrigin),
      ]),
    ),
  );
  return {
    ...two,
    thirdOrigin: t.origin,
    close: async () => {
      t.server.closeAllConnections();
      await Promise.all([two.close(), new Promise((r) => t.server.close(r))]);
    },
  };
}
