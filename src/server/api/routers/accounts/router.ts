import { router } from "@/server/api/trpc";
import { getMeProcedure } from "./get-me";
import { signUpProcedure } from "./sign-up";

// Dashboard only: accounts have no REST surface.
export const accountsRouter = router({ signUp: signUpProcedure, me: getMeProcedure });
