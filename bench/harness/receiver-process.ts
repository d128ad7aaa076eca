/**
 * A webhook receiver in its own process (forked by receiver.ts), so its work is not counted against
 * the load generator or the app. Records every delivery request (delivery id, tracking id, arrival
 * time) and answers as configured per webhook path `/hook/<name>`. Controlled over the IPC channel.
 */
import { createHash } from "node:crypto";
import http from "node:http";
import type { Behaviour, ReceiverCommand, ReceivedRecord, ReceiverStats } from "./receiver";

const port = Number(process.argv[2]);
const behaviours = new Map<string, Behaviour>();
const records: ReceivedRecord[] = [];
const receipts = new Map<string, number>();
let inFlight = 0;
let maxInFlight = 0;
const inFlightByName = new Map<string, number>();
const maxInFlightByName = new Map<string, number>();
/** Open connections: a sender opens one per request it has in flight (keep-alive reuses idle ones). */
let connections = 0;
let maxConnections = 0;

const now = () => performance.timeOrigin + performance.now();
/** A stable number in [0, 1) per delivery id, so "a share of deliveries" is the same on every attempt. */
const unitHash = (id: string) => createHash("sha256").update(id).digest().readUInt32BE(0) / 2 ** 32;

function reply(name: string, deliveryId: string, receipt: number): { status: number; delayMs: number } {
  const b = behaviours.get(name) ?? {};
  const failing = (b.failFirst ?? 0) >= receipt && unitHash(deliveryId) < (b.failShare ?? 1);
  return { status: failing ? 500 : (b.status ?? 200), delayMs: b.delayMs ?? 0 };
}

const server = http.createServer((req, res) => {
  const at = now();
  const name = (req.url ?? "").replace(/^\/hook\/?/, "").split("?")[0] || "default";
  inFlight++;
  maxInFlight = Math.max(maxInFlight, inFlight);
  const mine = (inFlightByName.get(name) ?? 0) + 1;
  inFlightByName.set(name, mine);
  maxInFlightByName.set(name, Math.max(maxInFlightByName.get(name) ?? 0, mine));
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const deliveryId = String(req.headers["webhook-id"] ?? req.headers["x-service-delivery-id"] ?? "");
    let trackingId = "";
    try {
      trackingId = String((JSON.parse(Buffer.concat(chunks).toString("utf8")) as { trackingId?: unknown }).trackingId ?? "");
    } catch {
      // Not JSON: recorded without a tracking id.
    }
    const receipt = (receipts.get(deliveryId) ?? 0) + 1;
    receipts.set(deliveryId, receipt);
    const { status, delayMs } = reply(name, deliveryId, receipt);
    records.push({ deliveryId, trackingId, name, at, status, receipt });
    const finish = () => {
      inFlight--;
      inFlightByName.set(name, (inFlightByName.get(name) ?? 1) - 1);
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(status < 300 ? "ok" : "failing on purpose");
    };
    if (delayMs > 0) setTimeout(finish, delayMs);
    else finish();
  });
});
server.keepAliveTimeout = 5_000;
server.on("connection", (socket) => {
  maxConnections = Math.max(maxConnections, ++connections);
  socket.on("close", () => connections--);
});

function stats(): ReceiverStats {
  const byName: ReceiverStats["byName"] = {};
  for (const r of records) {
    const s = (byName[r.name] ??= { requests: 0, deliveries: 0, maxInFlight: maxInFlightByName.get(r.name) ?? 0 });
    s.requests++;
    if (r.receipt === 1) s.deliveries++;
  }
  return { requests: records.length, deliveries: receipts.size, maxInFlight, inFlight, maxConnections, byName };
}

process.on("message", (message: ReceiverCommand & { id: number }) => {
  let result: unknown = null;
  switch (message.cmd) {
    case "configure":
      behaviours.set(message.name, message.behaviour);
      break;
    case "reset":
      records.length = 0;
      receipts.clear();
      maxInFlight = inFlight;
      maxInFlightByName.clear();
      maxConnections = connections;
      break;
    case "stats":
      result = stats();
      break;
    case "records":
      result = records.slice(message.from ?? 0);
      break;
  }
  process.send!({ id: message.id, result });
});
process.on("disconnect", () => process.exit(0));

server.listen(port, "127.0.0.1", () => process.send!({ ready: true }));
