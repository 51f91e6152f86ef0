import type { IncomingMessage } from "node:http";
import { USDC_NETWORKS, type UsdcNetwork } from "../contract/assets.js";
import type { SimulatedChain } from "./facilitator.js";
import { PRICES } from "./handlers/index.js";
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
  /** The networks offered, in the order of the offers. */
  private readonly networks: UsdcNetwork[];
  private readonly version;
  private readonly chains = new Map<UsdcNetwork, SimulatedChain>();
  /** Payments verified (and settled on the simulated chain) or refused. */
  readonly payments = { accepted: 0, refused: 0 };

  constructor(
    private readonly options: SandboxOptions,
    private readonly origin: () => string,
  ) {
    this.networks = (options.x402Networks ?? [options.x402Network ?? "base"]).map(
      (network) => USDC_NETWORKS[network],
    );
    this.version = options.x402Version ?? 1;
  }

  /** The requirement for a request to `url` paid on `network`, as the configured x402 version writes it. */
  requirement(url: URL, network: UsdcNetwork): Record<string, unknown> {
    // The price set for the run, else the registry's price of the path (a data call's 0.005 USDC).
    const amount = this.options.priceAtomic ?? PRICES.get(url.pathname) ?? DEFAULT_PRICE_ATOMIC;
    const common = {
      scheme: "exact",
      payTo: PAY_TO,
      maxTimeoutSeconds: 60,
      asset: network.asset,
      extra: { name: this.options.x402DomainName ?? network.domain.name, version: network.domain.version },
    };
    if (this.version === 2) return { ...common, network: network.caip2, amount };
    return {
      ...common,
      network: network.v1,
      maxAmountRequired: amount,
      resource: `${this.origin()}${url.pathname}`,
      description: `One request to ${url.pathname}`,
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
          description: `One request to ${url.pathname}`,
          mimeType: "application/json",
        },
        accepts: this.networks.map((n) => this.requirement(url, n)),
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
        accepts: this.networks.map((n) => this.requirement(url, n)),
      },
    };
  }

  /** Verifies and settles the payment a keyless request carries, if it carries one. */
  async take(req: IncomingMessage, url: URL): Promise<PaymentCheck> {
    const header = req.headers[this.version === 2 ? "payment-signature" : "x-payment"];
    if (typeof header !== "string") return {};
    const { SimulatedChain, verifyAndSettle } = await import("./facilitator.js");
    const network = this.networkOf(header);
    if (!network) {
      this.payments.refused++;
      return {
        refused: this.paymentRequired(url, "the payment names a network this server does not accept"),
      };
    }
    let chain = this.chains.get(network);
    if (!chain) {
      chain = new SimulatedChain({ address: network.asset, ...network.domain });
      this.chains.set(network, chain);
    }
    const outcome = await verifyAndSettle(
      chain,
      this.version,
      header,
      this.requirement(url, network),
      this.version === 2 ? network.caip2 : network.v1,
    );
    if (!outcome.ok) {
      this.payments.refused++;
      return { refused: this.paymentRequired(url, outcome.reason) };
    }
    this.payments.accepted++;
    return { header: outcome.responseHeader };
  }

  /** The offered network a payment header names (v1: `network`; v2: `accepted.network`). */
  private networkOf(header: string): UsdcNetwork | undefined {
    let doc: { network?: unknown; accepted?: { network?: unknown } };
    try {
      doc = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
    } catch {
      return this.networks[0];
    }
    const name = doc.accepted?.network ?? doc.network;
    return (
      this.networks.find((n) => n.v1 === name || n.caip2 === name) ??
      (name === undefined ? this.networks[0] : undefined)
    );
  }
}
