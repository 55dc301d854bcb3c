// A webhook endpoint on 127.0.0.1 and Standard Webhooks verification (https://www.standardwebhooks.com/):
// the signature is "v1," + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)), the key being the
// base64 part of the endpoint's "whsec_..." secret; several signatures may be sent, separated by spaces.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import type { WebhookEventPayload, WebhookYourTurnPayload } from "./rest/types.gen.js";

const TOLERANCE_SECONDS = 5 * 60;

type Delivery = { id: string; timestamp: string; signature: string; body: string };

function header(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  if (typeof value !== "string") throw new Error(`delivery without ${name}`);
  return value;
}

/** True when one of the delivery's signatures is ours and its timestamp is recent. */
export function verify(delivery: Delivery, secret: string, now: number = Date.now() / 1000): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${delivery.id}.${delivery.timestamp}.${delivery.body}`).digest();
  if (Math.abs(now - Number(delivery.timestamp)) > TOLERANCE_SECONDS) return false;
  return delivery.signature.split(" ").some((candidate) => {
    const [version, encoded] = candidate.split(",");
    if (version !== "v1" || encoded === undefined) return false;
    const given = Buffer.from(encoded, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** A delivery's body: a game event (typed by its `game_type`) or a turn notice. */
type Payload = WebhookEventPayload | WebhookYourTurnPayload;

/** The game a delivery is about, and whether it is the game's last event. */
function about(body: string): { gameId: string; over: boolean } {
  const payload: Payload = JSON.parse(body); // the server's body, as /openapi.json's webhooks declare it
  if (typeof payload.game_id !== "string") throw new Error(`delivery without game_id: ${body}`);
  return { gameId: payload.game_id, over: payload.type === "event" && payload.event.type === "game_over" };
}

export async function startReceiver() {
  const deliveries = new Map<string, Delivery[]>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const delivery = {
        id: header(request.headers, "webhook-id"),
        timestamp: header(request.headers, "webhook-timestamp"),
        signature: header(request.headers, "webhook-signature"),
        body,
      };
      const { gameId } = about(body);
      deliveries.set(gameId, [...(deliveries.get(gameId) ?? []), delivery]);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const address: AddressInfo | string | null = server.address();
  if (address === null || typeof address === "string") throw new Error("receiver has no port");
  return {
    url: `http://127.0.0.1:${address.port}/hook`,
    /** Waits for the game's game_over delivery; every delivery must carry a valid signature,
     * and a tampered body must not. Returns the number of distinct deliveries. */
    async verifiedFor(gameId: string, secret: string): Promise<number> {
      for (let wait = 0; wait < 600; wait++) {
        const got = deliveries.get(gameId) ?? [];
        if (got.some((d) => about(d.body).over)) {
          for (const delivery of got) {
            if (!verify(delivery, secret)) throw new Error(`bad signature on delivery ${delivery.id}`);
            if (verify({ ...delivery, body: `${delivery.body} ` }, secret)) throw new Error("a tampered body verified");
          }
          return new Set(got.map((d) => d.id)).size;
        }
        await new Promise((done) => setTimeout(done, 50));
      }
      throw new Error(`no game_over delivery for ${gameId} within 30 s`);
    },
    close: () => server.close(),
  };
}
