// Every call of the console's API, as the server's OpenAPI document lists it: the operator routes, the session
// routes and sign-in links (signing in, accepting an invitation or a reset link, and the list of accounts that
// offer single sign-on need no session, so they are left out). Tests replay each without a
// session, with a forged or ended one, and expect 401 from every one.

/** `[METHOD, path]` of every console call on `serverUrl`, path parameters filled from `ids` or made up. */
export const consoleCalls = async (
  serverUrl: string,
  ids: Record<string, string> = {},
): Promise<Array<[string, string]>> => {
  const doc = (await (await fetch(`${serverUrl}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const calls: Array<[string, string]> = [];
  for (const [template, operations] of Object.entries(doc.paths)) {
    if (!template.startsWith('/admin/')) continue;
    for (const method of Object.keys(operations)) {
      if (template.startsWith('/admin/session') && method === 'post') continue;
      if (template === '/admin/sso') continue;
      calls.push([
        method.toUpperCase(),
        template.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? `made-up-${name}`),
      ]);
    }
  }
  return calls;
};
