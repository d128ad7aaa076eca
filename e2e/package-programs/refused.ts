/* What the packages' types refuse: each line must be a type error (an unused @ts-expect-error fails the check). */
import { createReferloopClient, verifyWebhook } from "@referloop/node";
import { init, on } from "@referloop/js";
import { createReferloopMobile } from "@referloop/react-native";

const referloop = createReferloopClient({ apiKey: "rl_x", baseUrl: "https://referloop.example" });
// @ts-expect-error: no such path
void referloop.GET("/public/nothing");
// @ts-expect-error: a user needs its clientProvidedId
void referloop.POST("/public/projects/{projectId}/users", { params: { path: { projectId: "p" } }, body: {} });
// @ts-expect-error: the path parameter is required
void referloop.GET("/public/projects/{projectId}/campaign");
// @ts-expect-error: an answer has only its declared fields
void referloop.GET("/public/projects/{projectId}/campaign", { params: { path: { projectId: "p" } } }).then((campaign) => campaign.noSuchField);
// @ts-expect-error: the event has only the deliveries' fields
void verifyWebhook("{}", {}, "whsec_x").noSuchField;
// @ts-expect-error: the catalogue has no such event type
void (verifyWebhook("{}", {}, "whsec_x").type === "no.such.event");
const event = verifyWebhook("{}", {}, "whsec_x");
// @ts-expect-error: before it is told by its type, an event has only the fields every event has
void event.projectName;
// @ts-expect-error: the package has no script origin to fall back on: apiBaseUrl is required
init({ key: "pk_x" });
// @ts-expect-error: no such event
on("no_such_event", () => {});
// @ts-expect-error: storage and device are required
createReferloopMobile({ key: "pk_x", apiBaseUrl: "https://referloop.example" });
