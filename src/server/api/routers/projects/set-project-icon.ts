import { protectedProcedure } from "@/server/api/trpc/procedures";
import { MAX_ICON_BYTES } from "@/lib/sniff-image";
import { iconStore } from "@/server/domain/icons/icon-store";
import { setProjectIcon } from "@/server/domain/projects/set-project-icon";
import { publicOrigin } from "@/server/http/public-origin";
import { projectDtoSchema, setIconInput } from "./project.types";

export const setProjectIconProcedure = protectedProcedure
  .meta({
    permission: "projects.update",
    openapi: {
      method: "PUT",
      path: "/public/projects/{projectId}/app/icon",
      tags: ["Projects"],
      summary: "Upload a Mobile project's app icon",
      description:
        "The body is the image itself (not JSON, not a form): PNG, JPEG or WebP, judged by its bytes, whatever its name or " +
        `Content-Type; at most ${MAX_ICON_BYTES / 1024 / 1024} MB. The icon is served from a content-addressed URL, ` +
        "`{origin}/icons/{sha256}.{png|jpg|webp}`, cached for a year, and becomes the project's `app.iconUrl`. " +
        "`curl -X PUT --data-binary @icon.png -H 'Content-Type: image/png' ...`",
      contentTypes: ["image/png", "image/jpeg", "image/webp"],
    },
    binaryBody: { field: "icon", maxBytes: MAX_ICON_BYTES, what: "The icon" },
    errors: [
      { status: 413, description: `The icon is larger than ${MAX_ICON_BYTES / 1024 / 1024} MB.` },
      { status: 415, description: "The body is a multipart form: send the image's bytes as the body." },
    ],
  })
  .input(setIconInput)
  .output(projectDtoSchema)
  .mutation(({ ctx, input }) =>
    setProjectIcon(ctx.db, ctx.organizationId, input.projectId, input.icon, publicOrigin(ctx.config, ctx.headers), iconStore(ctx.db, ctx.config)),
  );
