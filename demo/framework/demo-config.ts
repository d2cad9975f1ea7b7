// The demo environment, as the shop page finds it: ?env=ID&key=KEY in the URL, else what `npm start` seeded
// (/demo/config.json).

/** The environment to run against, or why there is none. */
export type DemoConfig = { envId: string; apiKey: string } | { message: string };

/** Reads the URL, then asks the server; never rejects. */
export const loadDemoConfig = async (): Promise<DemoConfig> => {
  const params = new URLSearchParams(location.search);
  const envId = params.get('env');
  const apiKey = params.get('key');
  if (envId && apiKey) return { envId, apiKey };
  try {
    const body = (await (await fetch('/demo/config.json')).json()) as {
      envId?: string | null;
      apiKey?: string | null;
      message?: string;
    };
    if (body.envId && body.apiKey) return { envId: body.envId, apiKey: body.apiKey };
    return { message: body.message ?? 'The server knows no demo environment.' };
  } catch (error) {
    return { message: `The server did not answer /demo/config.json (${String(error)}).` };
  }
};
