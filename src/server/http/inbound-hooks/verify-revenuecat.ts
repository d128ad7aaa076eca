import { createHash, timingSafeEqual } from "node:crypto";

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

/**
 * The request's Authorization header equals the configured value, compared in constant time: both
 * are hashed first, so neither the content nor the length of the configured value leaks through timing.
 */
export function verifyRevenueCat(header: string | null, configured: string): boolean {
  return header !== null && timingSafeEqual(digest(header), digest(configured));
}
