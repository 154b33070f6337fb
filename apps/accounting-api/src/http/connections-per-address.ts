import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import * as ipaddr from 'ipaddr.js';

/** A client's address as one key for IPv4 and IPv6 sockets (`::ffff:10.0.0.1` is 10.0.0.1). */
function clientAddress(socket: Socket): string | undefined {
  const address = socket.remoteAddress;
  if (address === undefined) return undefined;
  return ipaddr.isValid(address) ? ipaddr.process(address).toString() : address;
}

/**
 * Closes a new connection at once when its client address already holds `max` open ones, so that
 * one client cannot fill the server's whole connection cap (HTTP_MAX_CONNECTIONS) and lock every
 * other client out, the orchestrator's liveness probe included. Counts per address from
 * 'connection' to 'close'.
 */
export function limitConnectionsPerAddress(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = clientAddress(socket);
    // No address: the client is already gone.
    if (address === undefined) {
      socket.destroy();
      return;
    }
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
