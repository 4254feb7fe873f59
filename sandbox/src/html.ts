/** Server-rendered pages of the authorization server. Everything interpolated is escaped. */

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f3f5f8;color:#1c2430}
main{max-width:26rem;margin:0 auto;padding:2rem 1rem}
.card{background:#fff;border:1px solid #d9dee7;border-radius:12px;padding:1.5rem;box-shadow:0 1px 3px rgba(0,0,0,.06)}
.brand{font-weight:700;letter-spacing:.02em;color:#0b5cad;margin:0 0 1rem}
h1{font-size:1.35rem;line-height:1.3;margin:0 0 .75rem}
p{margin:0 0 1rem}
.app{font-weight:600;word-break:break-all}
.scope{display:inline-block;background:#eef3fb;border:1px solid #c9d8ef;border-radius:6px;padding:.1rem .45rem;margin:.15rem .25rem .15rem 0;font-family:ui-monospace,Menlo,monospace;font-size:.9rem}
label{display:block;font-weight:600;margin:1rem 0 .3rem}
input[type=email],input[type=password]{width:100%;padding:.65rem .75rem;font:inherit;border:1px solid #aab4c3;border-radius:8px}
input:focus-visible,button:focus-visible{outline:3px solid #7fb0ef;outline-offset:2px}
.error{background:#fdecec;border:1px solid #e7a3a3;color:#8a1c1c;border-radius:8px;padding:.6rem .8rem;margin:0 0 1rem}
.actions{display:flex;gap:.75rem;margin-top:1.5rem;flex-wrap:wrap}
button{flex:1 1 8rem;padding:.7rem 1rem;font:inherit;font-weight:600;border-radius:8px;cursor:pointer;border:1px solid #0b5cad}
.accept{background:#0b5cad;color:#fff}
.decline{background:#fff;color:#0b5cad}
.hint{font-size:.875rem;color:#556274;margin-top:1.25rem}
code{font-family:ui-monospace,Menlo,monospace}
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<div class="card">
<p class="brand">Thermostat Service <small>(sandbox)</small></p>
${body}
</div>
</main>
</body>
</html>
`;
}

export interface ConsentPageInput {
  requestToken: string;
  clientId: string;
  scope: string;
  email: string;
  error: string | null;
}

export function consentPage(input: ConsentPageInput): string {
  const scopes = input.scope
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((scope) => `<span class="scope">${escapeHtml(scope)}</span>`)
    .join('');
  const error = input.error
    ? `<p class="error" role="alert" id="form-error">${escapeHtml(input.error)}</p>`
    : '';
  const describedBy = input.error ? ' aria-describedby="form-error" aria-invalid="true"' : '';
  return layout(
    'Sign in and authorize',
    `<h1>Sign in to allow access</h1>
<p>The application <span class="app">${escapeHtml(input.clientId)}</span> asks for access to your thermostats.</p>
<p>Requested scope: ${scopes}</p>
${error}
<form method="post" action="/authorize">
<input type="hidden" name="request" value="${escapeHtml(input.requestToken)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" value="${escapeHtml(input.email)}"${describedBy}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password"${describedBy}>
<div class="actions">
<button class="accept" type="submit" name="decision" value="accept">Accept</button>
<button class="decline" type="submit" name="decision" value="decline">Decline</button>
</div>
</form>
<p class="hint">Sandbox demo users: <code>demo@sandbox.test</code> / <code>demo-password</code>, <code>other@sandbox.test</code> / <code>other-password</code>.</p>`,
  );
}

export function errorPage(title: string, message: string): string {
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
<p>Return to the application and start again. This page does not redirect because the request could not be trusted.</p>`,
  );
}
