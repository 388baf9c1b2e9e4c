/**
 * Free loopback ports for a child that takes fixed ones (a Playwright config's webServer starts the sandbox on the
 * ports its environment names): asked of the system (port 0) and released at once, so that Playwright runs going
 * side by side (playwright-fixture's two, coverage-reporter's three) never share a port.
 */
import { type AddressInfo, createServer, type Server } from 'node:net';

async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<Server>((ok, fail) => {
          const s = createServer();
          s.once('error', fail);
          s.listen(0, '127.0.0.1', () => ok(s));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((done) => s.close(done))));
  return ports;
}

/** The environment that moves playwright.config.ts's and load.config.ts's sandboxes to free ports. */
export async function playwrightPortsEnv(): Promise<Record<string, string>> {
  const [host, tenant, loadHost, loadTenant] = (await freePorts(4)).map(String);
  return {
    EI_PW_HOST_PORT: host,
    EI_PW_TENANT_PORT: tenant,
    EI_PW_LOAD_HOST_PORT: loadHost,
    EI_PW_LOAD_TENANT_PORT: loadTenant,
  };
}
