import { expect } from "vitest";
import { DomainError } from "@/server/domain/errors";

/** Resolves to the DomainError a call threw, failing the test if it did not throw one. */
export async function domainError(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}
