// Where a record says which token it is. The spec puts identity under token_info (market, TA) or
// agent_info (agents), or at the top level (directory); the provider's docs also key TA records
// `token_id` and name tokens `token_symbol`, `token_name`, `token_address` (TA, trending), the ask
// endpoint `token_ticker`, `token_ca`, and staking `staking_details.ticker`, `.contract_address`.
// One reader for all of them, used by dedupe, by matching answers to the list asked for, and by the
// table's identity columns. Each registry entry's idPath and symbolPath is one of these.

type Bag = Record<string, unknown>;

const INFO_SECTIONS = ["token_info", "agent_info", "staking_details"] as const;

/** The paths tried, in order, for each part of a token's identity. */
export const IDENTITY_PATHS = {
  id: ["id", "token_id", "token_info.id", "agent_info.id", "staking_details.contract_address"],
  symbol: [
    "token_info.symbol",
    "agent_info.symbol",
    "symbol",
    "token_symbol",
    "token_ticker",
    "staking_details.ticker",
  ],
  name: ["token_info.name", "agent_info.name", "name", "token_name"],
  address: [
    "token_info.ca",
    "agent_info.ca",
    "address",
    "token_address",
    "token_ca",
    "ca",
    "staking_details.contract_address",
  ],
  chain: ["token_info.chain", "agent_info.chain", "chain"],
} as const;

export type IdentityPart = keyof typeof IDENTITY_PATHS;

interface Reader {
  head: string;
  leaf: string | undefined;
}

/** Each part's paths, split once: a section and a key in it, or a top-level key. */
const READERS = {} as Record<IdentityPart, readonly Reader[]>;
for (const [part, paths] of Object.entries(IDENTITY_PATHS) as Array<[IdentityPart, readonly string[]]>) {
  READERS[part] = paths.flatMap((path) => {
    const [head, leaf] = path.split(".") as [string, string | undefined];
    // Only the info sections are read into: any other dotted path names nothing.
    if (leaf !== undefined && !INFO_SECTIONS.includes(head as (typeof INFO_SECTIONS)[number])) return [];
    return [{ head, leaf }];
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
