import { statSync } from "node:fs";
import type { IO } from "../../../io.js";
import { holderOf, matchToken, readTokens, type StoredToken, touchTokens } from "../tokens/store.js";
import type { Principal } from "../toolset.js";

// The tokens a running server accepts, read again from their file whenever it changes (looked at on
// every request, and once a second for the calls in flight), so that `tokens revoke` takes effect
// at once: a revoked token's next request is refused, its calls running stop and its sessions
// close. A file that cannot be read accepts no token (said once on stderr) until it can be again.
// When each token was last used is written back to the file, at most once a minute.

/** How often the file is looked at while no request comes, and the last uses written back. */
const WATCH_MS = 1_000;
const TOUCH_MS = 60_000;

interface Held {
  principal: Principal;
  revoke: AbortController;
}

export class Principals {
  private tokens: StoredToken[] = [];
  private stamp = "";
  private readonly held = new Map<string, Held>();
  private readonly used = new Map<string, Date>();
  private failure: string | undefined;
  private readonly watch: NodeJS.Timeout;
  private readonly touch: NodeJS.Timeout;

  constructor(
    private readonly file: string,
    private readonly io: IO,
  ) {
    this.refresh();
    this.watch = setInterval(() => this.refresh(), WATCH_MS).unref();
    this.touch = setInterval(() => this.writeUses(), TOUCH_MS).unref();
  }

  /** How many tokens the file holds now. */
  get count(): number {
    this.refresh();
    return this.tokens.length;
  }

  /** Why the file cannot be read now, when it cannot. */
  get problem(): string | undefined {
    return this.failure;
  }

  /** The principal a presented token is, or undefined (no such token, or it was revoked). */
  find(presented: string): Principal | undefined {
    this.refresh();
    const entry = matchToken(this.tokens, presented);
    if (!entry) return undefined;
    let held = this.held.get(entry.hash);
    if (!held) {
      const revoke = new AbortController();
      held = { principal: { name: entry.name, holder: holderOf(entry), revoked: revoke.signal }, revoke };
      this.held.set(entry.hash, held);
    }
    this.io.addSecret(presented);
    this.used.set(entry.hash, new Date());
    return held.principal;
  }

  /** Reads the file again when it changed; principals whose token is gone are revoked. */
  refresh(): void {
    let stamp: string;
    try {
      const st = statSync(this.file);
      stamp = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    } catch {
      stamp = "missing";
    }
    if (stamp === this.stamp && !this.failure) return;
    this.stamp = stamp;
    try {
      this.tokens = readTokens(this.file);
      this.failure = undefined;
    } catch (error) {
      this.tokens = [];
      const message = (error as Error).message;
      if (message !== this.failure) this.io.warn(`${message}: no token is accepted until it can be read`);
      this.failure = message;
    }
    const hashes = new Set(this.tokens.map((t) => t.hash));
    for (const [hash, held] of this.held)
      if (!hashes.has(hash)) {
        held.revoke.abort(new Error("its token was revoked"));
        this.held.delete(hash);
      }
  }

  /** Writes when each token was last used (only for a token still there with the same hash). */
  private writeUses(): void {
    if (!this.used.size) return;
    const used = new Map(this.used);
    this.used.clear();
    try {
      touchTokens(this.file, used);
    } catch (error) {
      this.io.warn(`could not record when tokens were last used: ${(error as Error).message}`);
    }
  }

  close(): void {
    clearInterval(this.watch);
    clearInterval(this.touch);
    this.writeUses();
  }
}
