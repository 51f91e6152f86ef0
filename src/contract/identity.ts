import { ENDPOINTS } from "./endpoints.js";

// Where a record says which token it is. Most records put identity under token_info (market, TA)
// or agent_info (agents), or at the top level (directory), and name a token `token_id`,
// `token_symbol`, `token_name`, `token_address` (TA, trending) or `token_ticker`, `token_ca` (ask):
// those shared paths come first. An endpoint whose records keep it elsewhere says so in its registry
// entry (`identity`), and its paths are read after the shared ones. One reader for all of them,
// used by dedupe, by matching answers to the list asked for, and by the table's identity columns.

type Bag = Record<string, unknown>;

/** The paths records of several endpoints share, in the order they are tried. */
const SHARED = {
  id: ["id", "token_id", "token_info.id", "agent_info.id"],
  symbol: ["token_info.symbol", "agent_info.symbol", "symbol", "token_symbol", "token_ticker"],
  name: ["token_info.name", "agent_info.name", "name", "token_name"],
  address: ["token_info.ca", "agent_info.ca", "address", "token_address", "token_ca", "ca"],
  chain: ["token_info.chain", "agent_info.chain", "chain"],
};

/** The paths tried, in order, for each part of a token's identity: the shared, then the entries'. */
export const IDENTITY_PATHS: Readonly<Record<keyof typeof SHARED, readonly string[]>> = (() => {
  const paths = Object.fromEntries(Object.entries(SHARED).map(([part, list]) => [part, [...list]])) as Record<
    keyof typeof SHARED,
    string[]
  >;
  for (const entry of Object.values(ENDPOINTS) as Array<{ identity?: Partial<Record<string, string>> }>)
    for (const [part, path] of Object.entries(entry.identity ?? {}))
      if (path && !paths[part as keyof typeof SHARED].includes(path))
        paths[part as keyof typeof SHARED].push(path);
  return paths;
})();

export type IdentityPart = keyof typeof IDENTITY_PATHS;

interface Reader {
  head: string;
  leaf: string | undefined;
}

/** Each part's paths, split once: a section and a key in it, or a top-level key. */
const READERS = {} as Record<IdentityPart, readonly Reader[]>;
for (const [part, paths] of Object.entries(IDENTITY_PATHS) as Array<[IdentityPart, readonly string[]]>) {
  READERS[part] = paths.map((path) => {
    const [head, leaf] = path.split(".") as [string, string | undefined];
    return { head, leaf };
  });
}

/** The first value present (not null) at one of the part's paths, as text. */
export function identityOf(record: unknown, part: IdentityPart): string | undefined {
  if (!record || typeof record !== "object") return undefined;
  for (const { head, leaf } of READERS[part]) {
    let value: unknown = (record as Bag)[head];
    if (leaf !== undefined) value = value && typeof value === "object" ? (value as Bag)[leaf] : undefined;
    if (typeof value === "string") return value;
    if (typeof value === "number") return String(value);
  }
  return undefined;
}
