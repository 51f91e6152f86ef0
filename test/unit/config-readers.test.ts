import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readConfig } from "../../src/config/locations.js";
import { ConfigStore } from "../../src/config/store.js";

// The config file has two readers, conf (behind ConfigStore, which writes it) and
// the fast reader a run uses before it loads conf (config/locations.ts: readConfig). Both take the
// file's format from config/locations.ts; here they must agree on what the file holds.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function folder(): NodeJS.ProcessEnv {
  const dir = mkdtempSync(join(tmpdir(), "ti-readers-"));
  chmodSync(dir, 0o700);
  dirs.push(dir);
  return { TOKENINTEL_CONFIG_DIR: dir };
}

const TRICKY = [
  "base",
  "https://example.test/a?b=c&d=é",
  'quote " and \\ backslash',
  "line\nbreak",
  "🟠 emoji",
  "",
];

describe("the config file's two readers", () => {
  it("the fast reader reads what conf wrote: every setting and the key, exactly", async () => {
    const env = folder();
    const store = await ConfigStore.open(env);
    store.setApiKey("ti_key_with_=&%_chars");
    const names = ["chain", "output", "timeout", "retries", "cache", "base-url"] as const;
    for (const [i, value] of TRICKY.entries()) store.set(names[i]!, value);
    const fast = readConfig(env);
    expect(fast.apiKey).toBe("ti_key_with_=&%_chars");
    expect(fast.settings).toEqual(store.settings());
    expect(Object.values(fast.settings as Record<string, string>).sort()).toEqual([...TRICKY].sort());
    store.unset("chain");
    store.deleteApiKey();
    expect(readConfig(env)).toEqual({ settings: store.settings() });
  });

  it("conf reads what the fast reader reads from a file written by hand", async () => {
    const env = folder();
    const file = join(env.TOKENINTEL_CONFIG_DIR!, "config.json");
    const doc = {
      apiKey: "k",
      settings: { chain: "solana", "pay-network": "base", extra: "kept" },
      other: 1,
    };
    writeFileSync(file, `${JSON.stringify(doc, null, 4)}\n`, { mode: 0o600 });
    const store = await ConfigStore.open(env);
    expect(readConfig(env)).toEqual(doc);
    expect({ apiKey: store.apiKey, settings: store.settings() }).toEqual({
      apiKey: "k",
      settings: doc.settings,
    });
    // A change through conf keeps what it does not touch, as the fast reader then sees.
    store.set("chain", "base");
    expect(readConfig(env)).toEqual({ ...doc, settings: { ...doc.settings, chain: "base" } });
  });
});
