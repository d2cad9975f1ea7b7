// The page a refused single sign-on answers (issue 36): the browser is mid-navigation, so a short HTML page
// that says what happened and links back to the console's sign-in, under the console's own
// Content-Security-Policy (no script, no inline style).
import type { FastifyReply } from 'fastify';
import { CONSOLE_CSP } from '../plugins/console.js';
import type { SsoRefusal } from './sso-refusal.js';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page of a refused sign-in. */
export const refusalPage = (refusal: SsoRefusal): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Single sign-on refused</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head><body>
<main><h1>Single sign-on refused</h1>
<p data-reason="${refusal.reason}">${escapeHtml(refusal.message)}</p>
<p>Nothing was opened. <a href="/admin/">Back to the console's sign-in</a></p></main>
</body></html>`;

/** Answers `refusal` as its page, with the console's security headers and no caching. */
export const sendRefusal = (reply: FastifyReply, refusal: SsoRefusal): FastifyReply =>
  reply
    .code(refusal.status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': CONSOLE_CSP,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
    })
    .send(refusalPage(refusal));
