// `feature-server --help`: every command, one line each (PROTOCOL.md §13.9).

/** The usage text. */
export const USAGE = `Usage: feature-server <command> [--json]

Server
  serve                                   start the server (PORT, HOST, DATABASE_URL, FEATURE_DATA_DIR, LOG_LEVEL,
                                          LOG_FORMAT, FEATURE_OPERATOR_KEY); prints no sign-in link
  start [--sign-in-link]                  seed the demo on first run, then serve (what \`npm start\` runs); a
                                          console sign-in link on a terminal, or with --sign-in-link
  demo                                    seed the demo account, environment and campaigns if absent
  console [--url URL] [--sign-in-link]    a one-time sign-in link to the running server's console at /admin,
                                          printed on a terminal, or elsewhere with --sign-in-link (a link
                                          opens an operator session: keep it out of logs); --url: a server
                                          elsewhere, with FEATURE_OPERATOR_KEY
  console end-sessions                    sign every browser out of the console, on every server, and void
                                          unused sign-in links

Accounts and environments
  account create --name N                 create an account
  account list                            list the accounts
  env create --account A --name N [--xpc] [--1v1t]   create an environment; prints its API key once
  env list --account A                    list an account's environments
  env rotate-key --env E                  replace an environment's API key (the old one stops at once)
  panic on|off --env E                    serve no campaign at all (on), or serve them again (off)

Campaigns and reports
  import FILE --env E                     replace the environment's campaigns with a bucketing-format file
  campaign list --env E                   list the environment's campaigns, in their stored order
  campaign show ID|SLUG --env E           show a campaign
  campaign create FILE --env E [ANALYSIS]   create a campaign from a JSON file in the remote control API's
                                          form (snake_case); it goes last
  campaign update ID [FILE] --env E [ANALYSIS]   change the fields the JSON file gives (a list given
                                          replaces the whole list; "position": n moves the campaign), and
                                          the analysis settings the options give
    ANALYSIS: the report's settings, each option optional (the others are kept; never set: the default)
      --primary-goal event:ACTION|transaction:AFFILIATION|none   the goal verdicts are drawn on (none:
                                          no verdict, every goal exploratory; the default)
      --method sequential|fixed           sequential (default): valid however often the report is read;
                                          fixed: valid only when read once, at a size fixed in advance
      --alpha 0.001-0.2                   the false-positive rate accepted (default 0.05)
      --expected-visitors 100-100000000   the group's visitors at which a decision is expected
                                          (default 5000)
  campaign toggle ID --env E --state active|paused|interrupted   change a campaign's state (interrupted
                                          is final)
  campaign delete ID --env E              delete a campaign (its ids stay taken, its report readable)
  report --env E [--campaign idOrSlug]    campaign reports (a table without --json)
  report --rebuild                        fold every stored row into the report rollups again (recovery)

Remote control accesses
  access create --account A --name N --actions a,b [--envs e1,e2]   create an access; prints its client
                                          secret once (no --envs: every environment of the account)
  access list --account A                 list an account's accesses
  access show ID                          show an access
  access revoke ID                        revoke an access (its tokens stop at their next use)

Every command works on DATABASE_URL (PostgreSQL), else on the embedded store in FEATURE_DATA_DIR
(./.feature-data); while a server holds that folder, commands go through that server. With --json, every
outcome, errors included, is one JSON object on stdout.`;
