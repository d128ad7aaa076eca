import { LIST_COUNT_MAX } from "@/lib/schemas/common";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { listAppUsers } from "@/server/domain/app-users/list-app-users";
import { appUserPageSchema, listAppUsersInput } from "./app-user.types";

export const listAppUsersProcedure = protectedProcedure
  .meta({ permission: "appUsers.read",
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/users",
      tags: ["App users"],
      summary: "List app users",
      description:
        "Paged, searchable and sortable. Query parameter names are accepted in camelCase or PascalCase (`pageSize` or `PageSize`); values of SortBy, SortOrder and HasReferrals in any case. A `ProjectId` query parameter, if sent, must equal the path's project id. " +
        "`attributeKey` with `attributeValue` keeps the users whose attribute holds exactly that value (both or neither; the one missing is a 400 naming it); " +
        "it is answered from an index however many users the project has. " +
        `The matches are counted up to ${LIST_COUNT_MAX.toLocaleString("en-GB")}: when more match, \`totalCount\` is ${LIST_COUNT_MAX.toLocaleString("en-GB")} and \`totalCountExact\` false ` +
        "(page on while `hasNextPage`, which is always exact, or narrow the search).",
    },
  })
  .input(listAppUsersInput)
  .output(appUserPageSchema)
  .query(({ ctx, input: { projectId, ...query } }) => listAppUsers(ctx.db, ctx.organizationId, projectId, query));
