import { z } from "zod";

/*
 * trpc-to-openapi switches the plain z.number()/z.boolean() fields of every input object (nested
 * objects included) to coercion, so in a JSON body "0.5" would pass as 0.5, true as 1 and "false" as
 * true. Body fields use these instead: the pipe keeps the type strict and is left alone by it.
 * (Query parameters want the coercion: "2" is 2 there.)
 */
export const jsonNumber = (schema: z.ZodNumber) => schema.pipe(z.number());
export const jsonBoolean = () => z.boolean().pipe(z.boolean());
