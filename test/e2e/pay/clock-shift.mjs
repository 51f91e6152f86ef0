// A preload (NODE_OPTIONS=--import) for the ledger's clock tests: moves Date.now by CLOCK_SHIFT_MS,
// as a VM restored from a snapshot or a board before NTP would see it.
const shift = Number(process.env.CLOCK_SHIFT_MS ?? 0);
const realNow = Date.now;
Date.now = () => realNow() + shift;
