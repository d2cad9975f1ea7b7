/** Strips trailing slashes so derived URLs never hold `//` (PROTOCOL.md: trailing slashes are normalised). */
export const trimSlashes = (url: string): string => url.replace(/\/+$/, '');

/** The SDK's service URLs, derived from one base URL unless set alone (PROTOCOL.md, SDK configuration). */
export interface ServiceUrls {
  decisionApi: string;
  bucketing: string;
  events: string;
}

/** Derives the three service URLs from a base URL. */
export const serviceUrlsFrom = (base: string): ServiceUrls => {
  const b = trimSlashes(base);
  return { decisionApi: `${b}/v2`, bucketing: `${b}/cdn`, events: `${b}/events` };
};

/** `POST {D}/{envId}/campaigns` with the query our SDK always sends (PROTOCOL.md §3). */
export const decisionRoute = (decisionApi: string, envId: string): string =>
  `${trimSlashes(decisionApi)}/${encodeURIComponent(envId)}/campaigns?exposeAllKeys=true&extras[]=accountSettings`;

/** `POST {D}/activate`. */
export const activateRoute = (decisionApi: string): string => `${trimSlashes(decisionApi)}/activate`;

/** `GET {C}/{envId}/bucketing.json`. */
export const bucketingRoute = (bucketing: string, envId: string): string =>
  `${trimSlashes(bucketing)}/${encodeURIComponent(envId)}/bucketing.json`;

/** `POST {E}` (hits). */
export const eventsRoute = (events: string): string => trimSlashes(events);

/** `POST {E}/analytics` (developer usage, PROTOCOL.md §12). */
export const usageRoute = (events: string): string => `${trimSlashes(events)}/analytics`;

/** `GET {server}/v1/{envId}/stream`: the live-update stream (PROTOCOL.md §17), on the server's base URL. */
export const streamRoute = (server: string, envId: string): string =>
  `${trimSlashes(server)}/v1/${encodeURIComponent(envId)}/stream`;
