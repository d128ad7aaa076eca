/** Dashboard addresses of the support console: the delivery search, a delivery, a referral. */
export const deliveriesSearchPath = (projectId: string, query: Record<string, string> = {}) => {
  const params = new URLSearchParams(query).toString();
  return `/dashboard/projects/${projectId}/deliveries${params ? `?${params}` : ""}`;
};
export const deliveryPath = (projectId: string, deliveryId: string) => `/dashboard/projects/${projectId}/deliveries/${encodeURIComponent(deliveryId)}`;
export const referralPath = (projectId: string, trackingId: string) => `/dashboard/projects/${projectId}/referrals/${encodeURIComponent(trackingId)}`;
