// npm run screenshots: runs the built binary against the sandbox as on a 100-column colour
// terminal, and renders what it printed (ANSI text) to SVG files in docs/ for the README.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(root, "bin", "tokenintel.js");
const out = join(root, "docs");
const work = mkdtempSync(join(tmpdir(), "tokenintel-shots-"));
mkdirSync(out, { recursive: true });

const sandbox = spawn(process.execPath, [BIN, "sandbox", "--port", "0"], {
  env: { ...process.env, TOKENINTEL_CONFIG_DIR: work },
  stdio: ["ignore", "pipe", "ignore"],
});
const { url, key } = await new Promise((resolve, reject) => {
  let text = "";
  sandbox.stdout.setEncoding("utf8").on("data", (d) => {
    text += d;
    const m = /url: (\S+)\napi key: (\S+)\n/.exec(text);
    if (m) resolve({ url: m[1], key: m[2] });
  });
  sandbox.on("exit", () => reject(new Error("sandbox exited")));
});

const SHOTS = [
  [
    "market",
    "tokenintel market --chain base --ecosystem virtuals --limit 12",
    ["market", "-c", "base", "-e", "virtuals", "--limit", "12"],
  ],
  [
    "risk",
    "tokenintel market --chain base --ecosystem virtuals --view risk --limit 10",
    ["market", "-c", "base", "-e", "virtuals", "--view", "risk", "--limit", "10"],
  ],
  ["ta", "tokenintel ta --chain base --limit 8", ["ta", "-c", "base", "--limit", "8"]],
  [
    "ta-rsi",
    "tokenintel ta --chain base --view rsi --limit 8",
    ["ta", "-c", "base", "--view", "rsi", "--limit", "8"],
  ],
  [
    "agents",
    "tokenintel agents --chain base --sort agent_metrics.mcap:desc --limit 8",
    ["agents", "-c", "base", "--sort", "agent_metrics.mcap:desc", "--limit", "8"],
  ],
];

const COLORS = {
  30: "#4d4d4d",
  31: "#f0524f",
  32: "#5cc45c",
  33: "#e5c07b",
  34: "#61afef",
  35: "#c678dd",
  36: "#56b6c2",
  37: "#dcdfe4",
};
const FG = "#dcdfe4";
const BG = "#1e2127";
const CELL = 8.4;
const LINE = 19;

function escapeXml(s) {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** ANSI text → styled runs per line. */
function parse(text) {
  const lines = [];
  let style = {};
  for (const raw of text.replace(/\r/g, "").split("\n")) {
    const runs = [];
    let i = 0;
    for (const m of raw.matchAll(/\x1b\[([0-9;]*)m/g)) {
      if (m.index > i) runs.push({ text: raw.slice(i, m.index), style: { ...style } });
      for (const code of (m[1] || "0").split(";").map(Number)) {
        if (code === 0) style = {};
        else if (code === 1) style.bold = true;
        else if (code === 2) style.dim = true;
        else if (code === 3) style.italic = true;
        else if (code === 4) style.underline = true;
        else if (code === 7) style.inverse = true;
        else if (code === 22) style.bold = style.dim = false;
        else if (code === 23) style.italic = false;
        else if (code === 24) style.underline = false;
        else if (code === 27) style.inverse = false;
        else if (code === 39) style.fg = undefined;
        else if (COLORS[code]) style.fg = COLORS[code];
      }
      i = m.index + m[0].length;
    }
    if (i < raw.length) runs.push({ text: raw.slice(i), style: { ...style } });
    lines.push(runs);
  }
  while (lines.length && lines[lines.length - 1].every((r) => !r.text.trim())) lines.pop();
  return lines;
}

function svg(prompt, text) {
  const lines = [[{ text: `$ ${prompt}`, style: { fg: "#98c379" } }], [], ...parse(text)];
  const width = Math.ceil(100 * CELL + 32);
  const height = lines.length * LINE + 48;
  const body = lines
    .map((runs, row) => {
      let col = 0;
      const spans = runs
        .map(({ text: t, style }) => {
          const x = 16 + col * CELL;
          col += [...t].length;
          const attrs = [`x="${x.toFixed(1)}"`];
          const fill = style.inverse ? BG : (style.fg ?? FG);
          attrs.push(`fill="${fill}"`);
          if (style.bold) attrs.push('font-weight="bold"');
          if (style.dim) attrs.push('opacity="0.6"');
          if (style.italic) attrs.push('font-style="italic"');
          if (style.underline) attrs.push('text-decoration="underline"');
          const bg = style.inverse
            ? `<rect x="${x.toFixed(1)}" y="${(row * LINE + 24 + 4).toFixed(1)}" width="${([...t].length * CELL).toFixed(1)}" height="${LINE}" fill="${style.fg ?? FG}"/>`
            : "";
          return `${bg}<tspan ${attrs.join(" ")}>${escapeXml(t)}</tspan>`;
        })
        .join("");
      return `<text y="${row * LINE + 38}" xml:space="preserve">${spans}</text>`;
    })
    .join("\n");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="14">
<rect width="100%" height="100%" rx="8" fill="${BG}"/>
${body}
</svg>
`;
}

try {
  for (const [name, prompt, args] of SHOTS) {
    const r = spawnSync(process.execPath, [BIN, "--base-url", url, "--api-key", key, ...args], {
      env: {
        ...process.env,
        TOKENINTEL_CONFIG_DIR: work,
        TOKENINTEL_FORCE_TTY: "1",
        FORCE_COLOR: "1",
        COLUMNS: "100",
      },
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(`${prompt}: ${r.stderr}`);
    writeFileSync(join(out, `${name}.svg`), svg(prompt, r.stdout));
    console.log(`docs/${name}.svg`);
  }
} finally {
  sandbox.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
}
