import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { UsageError } from "../../../errors.js";

// Where `mcp --http [HOST:]PORT` listens, and which names a request may give in its Host header
// there: the host as typed and the address bound, the names of this machine when the address is
// a loopback or a wildcard one, and --allowed-hosts. Any other Host is a rebinding attempt.

export interface Listen {
  /** As typed ("127.0.0.1" when only a port was given), without brackets. */
  host: string;
  port: number;
}

/** The host a bare port listens on: this machine only. */
export const DEFAULT_HOST = "127.0.0.1";

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/** `8080`, `0.0.0.0:8080`, `localhost:0`, `[::1]:8080`; a usage error for anything else. */
export function parseListen(text: string): Listen {
  const m = /^(?:\[([0-9A-Fa-f:.]{2,45})\]:|([A-Za-z0-9.-]{1,253}):)?(\d{1,5})$/.exec(text.trim());
  const port = Number(m?.[3]);
  const host = m?.[1] ?? m?.[2] ?? DEFAULT_HOST;
  if (!m || port > 65_535 || (m[1] !== undefined && isIP(host) !== 6))
    throw new UsageError(
      `--http: expected [HOST:]PORT, such as 8080, 127.0.0.1:8080, 0.0.0.0:8080 or [::1]:8080 (PORT 0 picks a free one), got ${JSON.stringify(text.slice(0, 80))}`,
    );
  return { host, port };
}

/** The address the host names (a name is looked up: the first address it has). */
export async function resolveHost(host: string): Promise<string> {
  if (isIP(host)) return host;
  try {
    return (await lookup(host)).address;
  } catch {
    throw new UsageError(`--http: cannot find the address of ${JSON.stringify(host)}`);
  }
}

export function isLoopbackAddress(address: string): boolean {
  return /^127\./.test(address) || address === "::1" || /^::ffff:127\./i.test(address);
}

export function isWildcardAddress(address: string): boolean {
  return address === "0.0.0.0" || address === "::";
}

/** An address or name as a Host header carries it: an IPv6 address in brackets, lower case. */
export function asHostName(host: string): string {
  return (isIP(host) === 6 ? `[${host}]` : host).toLowerCase();
}

/** The Host names a request may give. */
export function allowedHostNames(listen: Listen, address: string, extra: readonly string[]): string[] {
  const names = new Set([asHostName(listen.host), asHostName(address)]);
  if (isLoopbackAddress(address) || isWildcardAddress(address)) for (const n of LOOPBACK_NAMES) names.add(n);
  for (const n of extra) names.add(asHostName(n.replace(/^\[(.*)\]$/, "$1")));
  names.delete(asHostName("0.0.0.0"));
  names.delete(asHostName("::"));
  return [...names];
}

/** The URL the server is reached at, for the line that says it is ready. */
export function serverUrl(address: string, port: number): string {
  return `http://${isIP(address) === 6 ? `[${address}]` : address}:${port}/mcp`;
}
