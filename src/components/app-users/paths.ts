/** Dashboard addresses of a project's app users. */
export const appUsersPath = (projectId: string) => `/dashboard/projects/${projectId}/users`;

export const appUserPath = (projectId: string, uniqueId: string) => `${appUsersPath(projectId)}/${encodeURIComponent(uniqueId)}`;

/** For places that know only the client's own id (referral rows): the page resolves it and redirects. */
export const appUserByClientIdPath = (projectId: string, clientProvidedId: string) =>
  `${appUsersPath(projectId)}/lookup?clientId=${encodeURIComponent(clientProvidedId)}`;
