// The version of this build: the bundler writes it in (scripts/build.mjs); from source, a dev mark.
// Its own module, so that a command can name it without importing the program that lists commands.

declare const __TOKENINTEL_VERSION__: string;
export const VERSION = typeof __TOKENINTEL_VERSION__ === "string" ? __TOKENINTEL_VERSION__ : "0.0.0-dev";
