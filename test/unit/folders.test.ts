import { homedir } from "node:os";
import { describe, expect, it } from "vitest";
import { platformFolder } from "../../src/config/folders.js";

// tokenintel's platform folders come from the run's environment, by each platform's conventions.

describe("platformFolder", () => {
  it("Linux: the XDG base directories, else under $HOME", () => {
    const home = { HOME: "/home/ada" };
    expect(platformFolder("config", home, "linux")).toBe("/home/ada/.config/tokenintel");
    expect(platformFolder("cache", home, "linux")).toBe("/home/ada/.cache/tokenintel");
    expect(platformFolder("data", home, "linux")).toBe("/home/ada/.local/share/tokenintel");
    const xdg = { ...home, XDG_CONFIG_HOME: "/x/c", XDG_CACHE_HOME: "/x/k", XDG_DATA_HOME: "/x/d" };
    expect(platformFolder("config", xdg, "linux")).toBe("/x/c/tokenintel");
    expect(platformFolder("cache", xdg, "linux")).toBe("/x/k/tokenintel");
    expect(platformFolder("data", xdg, "linux")).toBe("/x/d/tokenintel");
    // An empty variable is unset, as the XDG specification says.
    const empty = { ...home, XDG_CONFIG_HOME: "", XDG_CACHE_HOME: "", XDG_DATA_HOME: "" };
    expect(platformFolder("config", empty, "freebsd")).toBe("/home/ada/.config/tokenintel");
    expect(platformFolder("cache", empty, "freebsd")).toBe("/home/ada/.cache/tokenintel");
    expect(platformFolder("data", empty, "freebsd")).toBe("/home/ada/.local/share/tokenintel");
  });

  it("macOS: ~/Library", () => {
    const home = { HOME: "/Users/ada", XDG_CONFIG_HOME: "/ignored" };
    expect(platformFolder("config", home, "darwin")).toBe("/Users/ada/Library/Preferences/tokenintel");
    expect(platformFolder("cache", home, "darwin")).toBe("/Users/ada/Library/Caches/tokenintel");
    expect(platformFolder("data", home, "darwin")).toBe("/Users/ada/Library/Application Support/tokenintel");
  });

  it("Windows: %APPDATA% for the config, %LOCALAPPDATA% for the cache and data", () => {
    const env = { USERPROFILE: "/u/ada", APPDATA: "/u/ada/roam", LOCALAPPDATA: "/u/ada/local" };
    expect(platformFolder("config", env, "win32")).toMatch(/^\/u\/ada\/roam[/\\]tokenintel[/\\]Config$/);
    expect(platformFolder("cache", env, "win32")).toMatch(/^\/u\/ada\/local[/\\]tokenintel[/\\]Cache$/);
    expect(platformFolder("config", { USERPROFILE: "/u/ada" }, "win32")).toMatch(
      /^\/u\/ada[/\\]AppData[/\\]Roaming[/\\]tokenintel[/\\]Config$/,
    );
    expect(platformFolder("data", { USERPROFILE: "/u/ada" }, "win32")).toMatch(
      /^\/u\/ada[/\\]AppData[/\\]Local[/\\]tokenintel[/\\]Data$/,
    );
  });

  it("without HOME, the user's home folder", () => {
    expect(platformFolder("config", {}, "linux")).toBe(`${homedir()}/.config/tokenintel`);
    expect(platformFolder("config", { HOME: "" }, "linux")).toBe(`${homedir()}/.config/tokenintel`);
  });
});
