/** Starting and stopping a simulator's HTTP server (the Graph and the Demio simulators share these). */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on `host:port` (0: a free port); answers the server's URL. */
export async function listenOn(server: http.Server, options: { host: string; port: number }): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return urlOf(server);
}

/** The URL a client on this machine reaches the listening server at. */
export function urlOf(server: http.Server): string {
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`;
}

/** Closes the server, its kept-alive connections too. */
export async function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
