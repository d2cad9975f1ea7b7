// Hash routes (`#/campaigns/abc/report`): the server serves one page at /admin, and a reload or a shared link
// opens the same screen. The sign-in link's token also travels in the fragment (`#sign-in=…`), which browsers
// never send to a server, so it is in no request line or log.

/** A parsed route. */
export type Route =
  | { name: 'campaigns' }
  | { name: 'campaign-new' }
  | { name: 'campaign'; campaignId: string }
  | { name: 'report'; campaignId: string }
  | { name: 'history'; campaignId: string }
  | { name: 'live' }
  | { name: 'account' }
  | { name: 'environments' }
  | { name: 'remote-control' }
  | { name: 'webhooks' }
  | { name: 'users' }
  | { name: 'sso' }
  | { name: 'audit' };

/** The route of a location hash; unknown hashes open the campaigns. */
export const parseRoute = (hash: string): Route => {
  const parts = hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter((part) => part !== '')
    .map((part) => decodeURIComponent(part));
  const [first, second, third] = parts;
  if (first === 'campaigns' && second === 'new') return { name: 'campaign-new' };
  if (first === 'campaigns' && second !== undefined && third === 'report')
    return { name: 'report', campaignId: second };
  if (first === 'campaigns' && second !== undefined && third === 'history')
    return { name: 'history', campaignId: second };
  if (first === 'campaigns' && second !== undefined) return { name: 'campaign', campaignId: second };
  if (first === 'live') return { name: 'live' };
  if (first === 'settings' && second === 'account') return { name: 'account' };
  if (first === 'settings' && second === 'api-key') return { name: 'environments' };
  if (first === 'settings' && second === 'remote-control') return { name: 'remote-control' };
  if (first === 'settings' && second === 'webhooks') return { name: 'webhooks' };
  if (first === 'settings' && second === 'users') return { name: 'users' };
  if (first === 'settings' && second === 'sso') return { name: 'sso' };
  if (first === 'settings' && second === 'audit') return { name: 'audit' };
  return { name: 'campaigns' };
};

/** The hash of a route. */
export const routeHash = (route: Route): string => {
  switch (route.name) {
    case 'campaigns':
      return '#/campaigns';
    case 'campaign-new':
      return '#/campaigns/new';
    case 'campaign':
      return `#/campaigns/${encodeURIComponent(route.campaignId)}`;
    case 'report':
      return `#/campaigns/${encodeURIComponent(route.campaignId)}/report`;
    case 'history':
      return `#/campaigns/${encodeURIComponent(route.campaignId)}/history`;
    case 'live':
      return '#/live';
    case 'account':
      return '#/settings/account';
    case 'environments':
      return '#/settings/api-key';
    case 'remote-control':
      return '#/settings/remote-control';
    case 'webhooks':
      return '#/settings/webhooks';
    case 'users':
      return '#/settings/users';
    case 'sso':
      return '#/settings/sso';
    case 'audit':
      return '#/settings/audit';
  }
};

/** Goes to a route. */
export const navigate = (route: Route): void => {
  location.hash = routeHash(route);
};
