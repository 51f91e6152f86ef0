import { beforeAll, describe, expect, it } from "vitest";
import type { DataCommandDefinition } from "../../src/commands/data/definition.js";
import { loadTools } from "../../src/commands/mcp/catalog.js";
import {
  ENDPOINT_NAMES,
  ENDPOINTS,
  type EndpointSpec,
  type McpPart,
  pathsOf,
  type Without,
} from "../../src/contract/endpoints.js";
import { IDENTITY_PATHS, identityOf } from "../../src/contract/identity.js";
import { dotPaths } from "../../src/contract/shapes.js";
import { COMMANDS, fullProgram } from "../../src/program.js";
import { HANDLERS, PAYABLE, ROUTES } from "../../src/sandbox/handlers/index.js";
import { dataDefinitions } from "./data-definitions.js";

// One registry entry per endpoint (src/contract/endpoints.ts). Every entry has a
// sandbox handler or a documented reason, a command or a documented reason, and an MCP tool or a
// documented reason; what it says of paths, records, views and identity is what the code reads.

const entries = ENDPOINT_NAMES.map((name) => [name, ENDPOINTS[name] as EndpointSpec] as const);
const reason = (part: unknown): string | undefined =>
  part && typeof part === "object" && "none" in part ? (part as Without).none : undefined;

/** The data commands' definitions, by command name: each command module carries its own. */
let DEFINITIONS: Record<string, DataCommandDefinition> = {};
beforeAll(async () => {
  DEFINITIONS = await dataDefinitions();
});

describe("the registry", () => {
  it("every entry has a command, or a documented reason", () => {
    for (const [name, e] of entries) {
      if (typeof e.command === "string") expect(COMMANDS[e.command], name).toBeTypeOf("function");
      else expect(reason(e.command)?.length, `${name}: command`).toBeGreaterThan(10);
    }
  });

  it("every entry has a sandbox handler serving all its paths, x402 offer included, or a documented reason", () => {
    for (const [name, e] of entries) {
      if (e.sandbox === true) {
        expect(HANDLERS[name], name).toBeTypeOf("function");
        for (const path of pathsOf(e)) {
          expect(ROUTES[path], path).toBe(HANDLERS[name]);
          expect(PAYABLE.has(path), path).toBe(true);
        }
      } else {
        expect(reason(e.sandbox)?.length, `${name}: sandbox`).toBeGreaterThan(10);
        expect(HANDLERS[name], `${name} has a handler but the registry says it has none`).toBeUndefined();
        for (const path of pathsOf(e)) expect(ROUTES[path], path).toBeUndefined();
      }
    }
  });

  it("every entry has an MCP tool (name, description, compact fields of its records), or a documented reason", () => {
    const names = new Set<string>();
    for (const [name, e] of entries) {
      const why = reason(e.mcp);
      if (why !== undefined) {
        expect(why.length, `${name}: mcp`).toBeGreaterThan(10);
        continue;
      }
      const tool = e.mcp as McpPart;
      expect(tool.tool, name).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(names.has(tool.tool), `${tool.tool} twice`).toBe(false);
      names.add(tool.tool);
      expect(tool.title.length, name).toBeGreaterThan(3);
      expect(tool.description.length, name).toBeGreaterThan(40);
      expect(tool.compact.length, name).toBeGreaterThan(0);
      const shape = e.shape;
      if (shape) {
        const paths = new Set(dotPaths(shape));
        for (const field of tool.compact) expect(paths.has(field), `${name}: compact ${field}`).toBe(true);
      }
    }
  });

  it("every MCP tool an entry names is served, from the program's command, and nothing else is", async () => {
    const served = (await loadTools(await fullProgram(), false)).map((t) => t.spec.name);
    const named = entries.flatMap(([, e]) => (reason(e.mcp) === undefined ? [(e.mcp as McpPart).tool] : []));
    for (const tool of named) expect(served, tool).toContain(tool);
    // Beside the registry's, only a command's own tool (check's verdict) is served.
    expect(served.filter((t) => !named.includes(t))).toEqual(["check"]);
  });

  it("paths: under /v1/, each path belongs to one entry, the newer generation distinct from the older", () => {
    const owner = new Map<string, string>();
    for (const [name, e] of entries) {
      expect(e.newerPath, name).not.toBe(e.path);
      for (const path of pathsOf(e)) {
        expect(path, name).toMatch(/^\/v1\/[a-z-]+\/?$/);
        expect(owner.get(path), `${path} in ${name} and ${owner.get(path)}`).toBeUndefined();
        owner.set(path, name);
      }
      expect(e.price, name).toMatch(/^\d+(\.\d+)?$/);
      expect(["GET", "POST"], name).toContain(e.method);
    }
  });

  it("a data command's definition is its entry's: path, page size, selectors, record shape, views", () => {
    const dataCommands = entries.filter(([, e]) => typeof e.command === "string" && e.shape);
    expect(dataCommands.map(([, e]) => e.command).sort()).toEqual(Object.keys(DEFINITIONS).sort());
    for (const [name, e] of dataCommands) {
      const def = DEFINITIONS[e.command as string]!;
      expect(def.endpoint, name).toMatchObject({ path: e.path, kind: name, pageSize: e.pageSize });
      expect(def.newerPath, name).toBe(e.newerPath);
      expect(def.selectors, name).toEqual(e.selectors);
      expect(def.selectorRequired, name).toBe(e.selectorRequired);
      expect(def.shape, name).toBe(e.shape);
      expect(Object.keys(def.table.views), name).toEqual([...e.views]);
      expect(def.table.defaultView, name).toBe(e.views[0]);
      expect(def.perRequest, name).toBe(e.maxSelectorItems);
      expect(def.fanOut, name).toBe(e.fanOut);
      expect(Boolean(def.endpoint.oneRecord), name).toBe(Boolean(e.oneRecord));
      expect(Boolean(def.noChain), name).toBe(Boolean(e.noChain));
    }
  });

  it("a fan-out: its parameter is a field of the records and a flag of the command, offering every value", async () => {
    const fanned = entries.filter(([, e]) => e.fanOut);
    expect(fanned.length).toBeGreaterThan(0);
    for (const [name, e] of fanned) {
      const fan = e.fanOut!;
      expect(fan.values, name).toContain(fan.default);
      for (const v of fan.olderPathServes ?? []) expect(fan.values, name).toContain(v);
      if (fan.olderPathServes) expect(e.newerPath, `${name}: the other values' path`).toBeDefined();
      expect(Object.keys(e.shape ?? {}), name).toContain(fan.param);
      const module = (await COMMANDS[e.command as string]!()).default;
      const flag = module.flags[fan.param];
      expect(flag?.kind, `${name}: --${fan.param}`).toBe("list");
      expect(flag?.choices, `${name}: --${fan.param}`).toEqual(expect.arrayContaining([...fan.values]));
      if (reason(e.mcp) === undefined)
        expect((e.mcp as McpPart).compact, `${name}: its records say which ${fan.noun}`).toContain(fan.param);
    }
  });

  it("an entry's identity paths are read by the one identity reader, and are paths of its records", () => {
    for (const [name, e] of entries) {
      const paths = e.shape ? new Set(dotPaths(e.shape)) : undefined;
      for (const [part, path] of Object.entries(e.identity ?? {})) {
        expect(IDENTITY_PATHS[part as keyof typeof IDENTITY_PATHS], `${name}: ${part}`).toContain(path);
        if (paths) expect(paths.has(path), `${name}: ${path}`).toBe(true);
      }
    }
    // Staking's records keep their identity in staking_details: read from its entry, nowhere else.
    expect(identityOf({ staking_details: { ticker: "VIRTUAL" } }, "symbol")).toBe("VIRTUAL");
  });
});
