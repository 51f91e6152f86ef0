import type { IncomingMessage } from "node:http";
import { USDC_NETWORKS } from "../spec/assets.js";
import type { SimulatedChain } from "./facilitator.js";
import type { RouteResult } from "./http.js";
import type { SandboxOptions } from "./options.js";

// The sandbox's side of x402: the one offer it makes for a keyless request (USDC, `exact`, in the
// configured version and network), and the check of a payment a request carries, made by the
// reference verifier over a simulated chain (facilitator.ts).

const PAY_TO = `0x${"5a1db0".padEnd(36, "0")}beef`;
const DEFAULT_PRICE_ATOMIC = "5000";

export interface PaymentCheck {
  /** The payment was refused: answer this instead. */
  refused?: RouteResult;
  /** The payment was accepted: add this settlement header to the answer. */
  header?: [string, string];
}

export class X402Desk {
  private readonly network;
  private readonly version;
  private chain: SimulatedChain | undefined;
  /** Payments verified (and settled on the simulated chain) or refused. */
  readonly payments = { accepted: 0, refused: 0 };

  constructor(
    private readonly options: SandboxOptions,
    private readonly origin: () => string,
  ) {
    this.network = USDC_NETWORKS[options.x402Network ?? "base"];
    this.version = options.x402Version ?? 1;
  }

  /** The requirement for a request to `url`, as the configured x402 version writes it. */
  requirement(url: URL): Record<string, unknown> {
    const amount = this.options.priceAtomic ?? DEFAULT_PRICE_ATOMIC;
    const common = {
      scheme: "exact",
      payTo: PAY_TO,
      maxTimeoutSeconds: 60,
      asset: this.network.asset,
      extra: {
        name: this.options.x402DomainName ?? this.network.domain.name,
        version: this.network.domain.version,
      },
    };
    if (this.version === 2) return { ...common, network: this.network.caip2, amount };
    return {
      ...common,
      network: this.network.v1,
      maxAmountRequired: amount,
      resource: `${this.origin()}${url.pathname}`,
      description: "Token directory page",
      mimeType: "application/json",
    };
  }

  /** The 402 answer: requirements in the body (v1) or in a PAYMENT-REQUIRED header (v2). */
  paymentRequired(url: URL, error?: string): RouteResult {
    if (this.version === 2) {
      const required = {
        x402Version: 2,
        error: error ?? "payment required",
        resource: {
          url: `${this.origin()}${url.pathname}`,
          description: "Token directory page",
          mimeType: "application/json",
        },
        accepts: [this.requirement(url)],
      };
      return {
        status: 402,
        body: {},
        headers: { "payment-required": Buffer.from(JSON.stringify(required)).toString("base64") },
      };
    }
    return {
      status: 402,
      body: {
        x402Version: 1,
        error: error ?? "X-PAYMENT header is required",
        accepts: [this.requirement(url)],
      },
    };
  }

  /** Verifies and settles the payment a keyless request carries, if it carries one. */
  async take(req: IncomingMessage, url: URL): Promise<PaymentCheck> {
    const header = req.headers[this.version === 2 ? "payment-signature" : "x-payment"];
    if (typeof header !== "string") return {};
    const { SimulatedChain, verifyAndSettle } = await import("./facilitator.js");
    this.chain ??= new SimulatedChain({ address: this.network.asset, ...this.network.domain });
    const outcome = await verifyAndSettle(
      this.chain,
      this.version,
      header,
      this.requirement(url),
      this.version === 2 ? this.network.caip2 : this.network.v1,
    );
    if (!outcome.ok) {
      this.payments.refused++;
      return { refused: this.paymentRequired(url, outcome.reason) };
    }
    this.payments.accepted++;
    return { header: outcome.responseHeader };
  }
}
