import { afterEach, describe, expect, it, vi } from "vitest";
import { baseEnv } from "../e2e/helpers.js";

// The environment every run under test gets (test/e2e/helpers.ts): nothing of the machine's that
// changes what tokenintel prints or how Node starts.

describe("baseEnv", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("a UTF-8 locale, no setting, key, colour choice or Node start-up variable of the machine", () => {
    vi.stubEnv("LC_ALL", "C");
    vi.stubEnv("LC_CTYPE", "C");
    vi.stubEnv("LANG", "C");
    vi.stubEnv("TOKENINTEL_API_KEY", "machine-key");
    vi.stubEnv("NO_COLOR", "1");
    vi.stubEnv("FORCE_COLOR", "1");
    vi.stubEnv("NODE_OPTIONS", "--require /tmp/x.js");
    vi.stubEnv("NODE_EXTRA_CA_CERTS", "/etc/ssl/certs/ca-certificates.crt");
    vi.stubEnv("SOMETHING_ELSE", "kept");
    const env = baseEnv("/tmp/config");
    expect(env.LANG).toBe("C.UTF-8");
    for (const name of [
      "LC_ALL",
      "LC_CTYPE",
      "TOKENINTEL_API_KEY",
      "NO_COLOR",
      "FORCE_COLOR",
      "NODE_OPTIONS",
      "NODE_EXTRA_CA_CERTS",
    ])
      expect(env[name], name).toBeUndefined();
    expect(env.SOMETHING_ELSE).toBe("kept");
    expect(env.TOKENINTEL_CONFIG_DIR).toBe("/tmp/config");
    expect(env.TOKENINTEL_DATA_DIR).toBe("/tmp/config/data");
  });
});
