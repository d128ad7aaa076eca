/* A React Native app's client from @referloop/react-native, run in Node with in-memory adapters. */
import { createReferloopMobile, type StorageAdapter } from "@referloop/react-native";

const stored = new Map<string, string>();
const storage: StorageAdapter = {
  getItem: async (key) => stored.get(key) ?? null,
  setItem: async (key, value) => void stored.set(key, value),
  removeItem: async (key) => void stored.delete(key),
};
const referloop = createReferloopMobile({
  key: process.env.PUBLISHABLE_KEY ?? "",
  apiBaseUrl: process.env.APP ?? "",
  storage,
  device: { getInfo: () => ({ os: "Android", osVersion: "14", screenWidth: 412, screenHeight: 915, timezone: "Europe/Berlin", locale: "de-DE" }) },
});
await referloop.start();
const result = await referloop.identify({ userId: "pkg-mobile-user" });
console.log(JSON.stringify(result.ok ? { ok: true, clientProvidedId: result.user.clientProvidedId, referralCode: referloop.getReferralCode() } : { ok: false, kind: result.error.kind, message: result.error.message }));
