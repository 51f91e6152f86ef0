import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG_KEYS } from "../../../src/config/keys.js";
import { run } from "../../commands/harness.js";
import { useServers } from "../fixtures.js";
import { has, shell, useShells } from "../shells.js";
import { sh } from "../terminal-session.js";

// Shell completion of the built binary in real shells: bash (positional values, setting names,
// global options with values before the command, each command's views, dot paths and api's paths),
// zsh (descriptions with colons) and fish.

const SETTING_NAMES = Object.keys(CONFIG_KEYS).join(" ");

const servers = useServers();
const config = { path: servers.folder("tokenintel-ci-config-") };
const cache = { path: servers.folder("tokenintel-ci-cache-") };
const { shellEnv, bashComplete, lastCompopt } = useShells(config.path);

describe("bash completion", () => {
  const env = () => shellEnv(cache.path);

  it("completion <Tab> offers the shells", async () => {
    expect(await bashComplete(["tokenintel", "completion", ""], env())).toEqual(["bash", "zsh", "fish"]);
    expect(await bashComplete(["tokenintel", "completion", "z"], env())).toEqual(["zsh"]);
  });

  it("config set|get|unset <Tab> offers the setting names", async () => {
    const keys = Object.keys(CONFIG_KEYS);
    for (const action of ["set", "get", "unset"]) {
      expect(await bashComplete(["tokenintel", "config", action, ""], env()), action).toEqual(keys);
    }
    expect(await bashComplete(["tokenintel", "config", "get", "ch"], env())).toEqual(["chain"]);
    // The subcommands themselves are still offered one level up.
    expect(await bashComplete(["tokenintel", "config", "s"], env())).toEqual(["set"]);
  });

  it("global options with values before the command do not hide the command", async () => {
    expect(await bashComplete(["tokenintel", "--color", "never", "market", "--v"], env())).toEqual([
      "--view",
      "--version",
      "--verbose",
    ]);
    expect(await bashComplete(["tokenintel", "--timeout", "5s", "completion", ""], env())).toEqual([
      "bash",
      "zsh",
      "fish",
    ]);
    expect(
      await bashComplete(["tokenintel", "--color", "never", "--timeout", "5s", "config", "set", ""], env()),
    ).toEqual(Object.keys(CONFIG_KEYS));
    // Values of flags still complete, and the command's own value flags are skipped as well.
    expect(await bashComplete(["tokenintel", "--color", "never", "market", "--view", "h"], env())).toEqual([
      "holders",
    ]);
    expect(await bashComplete(["tokenintel", "market", "-c", "base", "--vi"], env())).toEqual(["--view"]);
  });

  it("--view offers each command's own views; help offers the commands", async () => {
    expect(await bashComplete(["tokenintel", "ta", "--view", ""], env())).toEqual([
      "change",
      "rsi",
      "support",
      "resistance",
      "sma",
    ]);
    expect(await bashComplete(["tokenintel", "market", "--view", ""], env())).toEqual([
      "overview",
      "holders",
      "risk",
      "social",
      "dev",
    ]);
    expect(await bashComplete(["tokenintel", "he"], env())).toEqual(["help"]);
    expect(await bashComplete(["tokenintel", "help", "ma"], env())).toEqual(["market"]);
  });

  it("--sort, --fields, --columns and --where complete the dot paths of the command's records", async () => {
    // One level at a time: a section ends in a dot, and no space follows it, so the path goes on.
    expect(await bashComplete(["tokenintel", "market", "-c", "base", "--sort", "token_m"], env())).toEqual([
      "token_metrics.",
    ]);
    expect(lastCompopt).toEqual(["COMPOPT -o nospace"]);
    expect(await bashComplete(["tokenintel", "market", "--sort", "token_metrics.usd"], env())).toEqual([
      "token_metrics.usd_price",
    ]);
    expect(
      await bashComplete(["tokenintel", "market", "--sort", "token_metrics.usd_price:d"], env()),
    ).toEqual(["token_metrics.usd_price:desc"]);
    // The last item of a list; each command its own records (agents: agent_metrics, not token_metrics).
    expect(
      await bashComplete(["tokenintel", "market", "--fields", "token_info.symbol,token_metrics.fd"], env()),
    ).toEqual(["token_info.symbol,token_metrics.fdv"]);
    expect(await bashComplete(["tokenintel", "agents", "--columns", "agent_m"], env())).toEqual([
      "agent_metrics.",
    ]);
    expect(await bashComplete(["tokenintel", "agents", "--columns", "token_m"], env())).toEqual([]);
    expect(await bashComplete(["tokenintel", "trending", "--where", "liq"], env())).toEqual([
      "liquidity",
      "liquidity_usd",
    ]);
    // Past --where's operator the value is the user's to type.
    expect(await bashComplete(["tokenintel", "trending", "--where", "liquidity>1"], env())).toEqual([]);
    if (has("fish")) {
      const fish = await shell(
        "fish",
        [
          "-c",
          "tokenintel completion fish | source; complete -C 'tokenintel market --fields token_info.symbol,token_metrics.fd'",
        ],
        env(),
      );
      expect(fish.stdout.split("\t")[0]).toBe("token_info.symbol,token_metrics.fdv");
    }
  });

  it("api's path completes from the registry: both generations", async () => {
    expect(await bashComplete(["tokenintel", "api", "/v1/sta"], env())).toEqual([
      "/v1/stake-trends",
      "/v1/staking-intelligence",
    ]);
  });

  it("the hidden __complete command is neither offered nor listed in help", async () => {
    expect(await bashComplete(["tokenintel", "__"], env())).toEqual([]);
    const help = await run(["--help"], config.path);
    expect(help.stdout).toContain("completion");
    expect(help.stdout).not.toContain("__complete");
  });

  it("zsh descriptions keep their colons; the script loads in zsh", async () => {
    const r = await run(["completion", "zsh"], config.path);
    expect(r.code).toBe(0);
    // A command's description after the first colon of a _describe item is kept whole.
    expect(r.stdout).toContain(
      "'ta:multi-interval technical analysis: price change, RSI, support, resistance and SMA over 1m to 1w (changes to 30d)'",
    );
    // Inside an option's [explanation], colons stay; brackets are escaped, quotes closed and reopened.
    expect(r.stdout).toContain(
      "'--api-key[API key for this run (prefer '\\''auth login'\\'' or TOKENINTEL_API_KEY: flags show up in shell history)]:value: '",
    );
    expect(r.stdout).toContain("'completion:print a shell completion script: bash, zsh, fish'");
    expect(r.stdout).toContain("'1:shell:(bash zsh fish)'");
    expect(r.stdout).toContain(`'1:key:(${SETTING_NAMES})'`);
    expect(r.stdout).toMatch(/'--tickers\[[^\]]*\]:tickers:_tokenintel_tickers'/);
    expect(r.stdout).not.toContain("__complete:");
    if (has("zsh")) {
      const file = join(cache.path, "tokenintel.zsh");
      writeFileSync(file, r.stdout);
      const loaded = await shell(
        "zsh",
        ["-f", "-c", `autoload -U compinit; compinit -u -D; source ${sh(file)} && whence -w _tokenintel`],
        shellEnv(cache.path),
      );
      expect(loaded.stderr).toBe("");
      expect(loaded.stdout).toContain("_tokenintel: function");
    }
  });

  it("fish: shells, config keys and global options with values", async () => {
    const r = await run(["completion", "fish"], config.path);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`-n "__fish_seen_subcommand_from completion" -a 'bash zsh fish'`);
    expect(r.stdout).toContain(`-a '${SETTING_NAMES}'`);
    expect(r.stdout).toContain("-l tickers -x -a '(__tokenintel_tickers)'");
    if (has("fish")) {
      const complete = async (line: string) => {
        const out = await shell(
          "fish",
          ["-c", `tokenintel completion fish | source; complete -C ${sh(line)}`],
          shellEnv(cache.path),
        );
        expect(out.stderr).toBe("");
        return out.stdout
          .split("\n")
          .filter(Boolean)
          .map((l) => l.split("\t")[0]);
      };
      expect((await complete("tokenintel completion ")).sort()).toEqual(["bash", "fish", "zsh"]);
      expect((await complete("tokenintel config set ")).sort()).toEqual(Object.keys(CONFIG_KEYS).sort());
      expect(await complete("tokenintel --color never market --vi")).toEqual(["--view"]);
    }
  });
});
