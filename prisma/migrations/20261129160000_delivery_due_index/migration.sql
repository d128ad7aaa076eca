-- The workers' due list holds Pending deliveries only (issue 33). Keyed on (status, nextAttemptAt),
-- every delivery took a second entry there when its attempt's result turned it Succeeded or Failed,
-- an entry no claim ever reads. Partial, it is written once, at the claim that queues the delivery.
-- Prisma cannot express it and ignores it when comparing the schema with the migrations.
DROP INDEX "Delivery_status_nextAttemptAt_idx";
CREATE INDEX "Delivery_due_idx" ON "Delivery" ("nextAttemptAt") WHERE "status" = 'Pending';
