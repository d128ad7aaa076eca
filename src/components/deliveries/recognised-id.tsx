"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { appUserPath } from "@/components/app-users/paths";
import { useTRPC } from "@/lib/trpc";
import { deliveryPath, referralPath } from "./paths";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const link = "font-medium text-brand-700 hover:underline";

type RecognisedIdProps = {
  projectId: string;
  term: string;
  /** The rows found, by their parties' client ids: say whether the term is a referrer's or a referee's. */
  parties: readonly { referrerId: string | null; refereeId: string | null }[];
  /** The deliveries found (the delivery search): the term may be one of their ids. */
  deliveryIds?: readonly string[];
};

/**
 * What a search term names, found even when the list has nothing for it (a reward never granted sends
 * no delivery): a delivery id, a tracking id (looked up as a referral), or an app user's client id,
 * with a link to its page. The support console's searches all show it above their results.
 */
export function RecognisedId({ projectId, term, parties, deliveryIds = [] }: RecognisedIdProps) {
  const trpc = useTRPC();
  const uuid = UUID.test(term);
  const delivery = deliveryIds.includes(term);
  const referral = useQuery({ ...trpc.referrals.get.queryOptions({ projectId, trackingId: term }), enabled: uuid && !delivery, retry: false });
  const user = useQuery({ ...trpc.appUsers.getByClientId.queryOptions({ projectId, clientProvidedId: term }), enabled: !!term && !uuid, retry: false });
  if (!term) return null;
  if (delivery) {
    return (
      <p className="text-sm text-zinc-700">
        A delivery id: <Link className={link} href={deliveryPath(projectId, term)}>open the delivery</Link>.
      </p>
    );
  }
  if (referral.data) {
    const r = referral.data.referral;
    const events = referral.data.rewardEvents.length;
    return (
      <p className="text-sm text-zinc-700">
        A tracking id ({r.referrerId ?? "erased referrer"} → {r.refereeId ?? "referee not known yet"}, {r.status}
        {events ? `, ${events} reward event${events === 1 ? "" : "s"}` : ", no reward event reported"}
        ): <Link className={link} href={referralPath(projectId, term)}>open the referral</Link>.
      </p>
    );
  }
  if (user.data) {
    const referee = parties.some((p) => p.refereeId === term);
    const referrer = parties.some((p) => p.referrerId === term);
    const role = referee ? (referrer ? "a referrer and referee" : "a referee") : referrer ? "a referrer" : "an app user";
    return (
      <p className="text-sm text-zinc-700">
        The client id of {role}: <Link className={link} href={appUserPath(projectId, user.data.uniqueId)}>open the user</Link>, their referrals and events.
      </p>
    );
  }
  return null;
}
