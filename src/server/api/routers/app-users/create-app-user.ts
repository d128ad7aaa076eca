import { IDEMPOTENCY_DOC, idempotencyKeyHeader, idempotently } from "@/server/api/trpc/idempotency";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { createAppUser } from "@/server/domain/app-users/create-app-user";
import { appUserDtoSchema, createAppUserInput } from "./app-user.types";

export const createAppUserProcedure = protectedProcedure
  .meta({ permission: "appUsers.write",
    status: 201,
    errors: [
      { status: 409, description: "An app user with this ClientProvidedId already exists in the project (or the Idempotency-Key is in use by a request in progress)." },
      { status: 503, description: "No free referral code could be drawn; retry the request." },
    ],
    openapi: {
      method: "POST",
      path: "/public/projects/{projectId}/users",
      tags: ["App users"],
      summary: "Create an app user",
      description: `Creates the user with a generated referral code. ${IDEMPOTENCY_DOC}`,
      requestHeaders: idempotencyKeyHeader,
    },
  })
  .input(createAppUserInput)
  .output(appUserDtoSchema)
  .mutation(({ ctx, input: { projectId, ...body } }) =>
    idempotently(ctx, `users.create:${projectId}`, body, () => createAppUser(ctx.db, ctx.organizationId, projectId, body)),
  );
