import { organizationBody } from "@/lib/schemas/accounts";
import { auditActor } from "@/server/api/trpc/audit-actor";
import { memberProcedure } from "@/server/api/trpc/procedures";
import { audited } from "@/server/domain/audit/audited";
import { renameOrganization } from "@/server/domain/organizations/rename-organization";

export const renameOrganizationProcedure = memberProcedure
  .meta({ permission: "organization.rename" })
  .input(organizationBody)
  .mutation(({ ctx, input }) =>
    audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => renameOrganization(tx, ctx.organizationId, input.name),
      (o) => ({ action: "organization.rename", target: { type: "organization", id: o.id, label: o.name }, details: { previousName: o.previousName } }),
    ),
  );
