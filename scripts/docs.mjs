// npm run docs: bundles scripts/reference.ts on its own and runs it: the reference pages, the agent
// skill, the README's generated parts and the outputs of every console block, written from the
// program.
import { importScript } from "./ts-script.mjs";

const { main } = await importScript("reference");
process.exitCode = await main(process.argv.slice(2));
