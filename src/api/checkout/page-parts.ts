// The pieces both payer's pages share (a charge's, page.ts, and a recurrence authorization's,
// authorization-page.ts): the document and its inline CSS and script (both under the response's CSP
// nonce), the code section with the QR from the same origin, the status line and the time left.
import { secondsLeft, stateMessage, type CheckoutView } from './view.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** `2026-11-30` → `30/11/2026`. */
export const brazilianDate = (date: string) => date.split('-').reverse().join('/');

/** Time left as the page shows it: `14:59`, `2 h 05 min`, `3 dias e 4 h`. The script's `left` is the same function. */
export function formatTimeLeft(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  if (days > 0) return `${days} ${days === 1 ? 'dia' : 'dias'}${hours > 0 ? ` e ${hours} h` : ''}`;
  if (hours > 0) return `${hours} h ${pad(minutes)} min`;
  return `${pad(minutes)}:${pad(s % 60)}`;
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1b1b;background:#f3f4f6}
main{max-width:28rem;margin:0 auto;padding:1rem}
.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.25rem;margin:0 0 .25rem;overflow-wrap:anywhere}
.desc{margin:0 0 1rem;color:#4a4a4a;overflow-wrap:anywhere}
.amount{font-size:2rem;font-weight:700;margin:0}
.label{margin:1rem 0 0;color:#4a4a4a;font-size:.875rem}
.due{margin:0;color:#4a4a4a}
.status{margin:1rem 0;padding:.75rem 1rem;border-radius:8px;font-weight:600;background:#fff4d6;color:#5c4300}
.status[data-state=paid],.status[data-state=authorized]{background:#e3f4e8;color:#0d5a27}
.status[data-state=expired],.status[data-state=failed],.status[data-state=refunded],.status[data-state=rejected],.status[data-state=cancelled]{background:#fde8e8;color:#8a1414}
.status[data-state=completed]{background:#eceff3;color:#1b1b1b}
.kicker{margin:0 0 .25rem;font-size:.875rem;font-weight:600;color:#0842a0}
.terms-title{font-size:1rem;margin:1.25rem 0 .25rem}
.terms{margin:0;font-size:.9375rem}
.terms div{display:flex;flex-wrap:wrap;gap:0 1rem;padding:.5rem 0;border-top:1px solid #e5e7eb}
.terms dt{color:#4a4a4a}
.terms dd{margin:0 0 0 auto;font-weight:600;text-align:right;overflow-wrap:anywhere}
.intro{margin:0 0 .75rem;text-align:center}
.nowrap{white-space:nowrap}
.qr{display:block;width:100%;max-width:264px;height:auto;margin:0 auto;image-rendering:pixelated}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
textarea{width:100%;word-break:break-all;font:.8125rem/1.4 ui-monospace,Menlo,Consolas,monospace;padding:.5rem;border:1px solid #767676;border-radius:6px;resize:none;color:#1b1b1b;background:#fff;overflow-wrap:anywhere}
button{width:100%;margin-top:.5rem;padding:.75rem;font:inherit;font-weight:600;color:#fff;background:#0b57d0;border:0;border-radius:8px;cursor:pointer}
button:hover{background:#0842a0}
:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
.left{margin:1rem 0 0;text-align:center;color:#4a4a4a}
.foot{margin:1rem 0 0;text-align:center;font-size:.875rem;color:#4a4a4a}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
[hidden]{display:none!important}
@media (min-width:768px){main{padding:3rem 1rem}}
`;

// The script: copy button, countdown, and the live status until it is final: server-sent events
// (/pay/{token}/events), or polling of /pay/{token}/status where the stream cannot be had. `fmt` mirrors formatTimeLeft.
const SCRIPT = `(()=>{
const $=(id)=>document.getElementById(id);
const base=location.pathname.replace(/\\/+$/,'');
const status=$('status'),pay=$('pay'),left=$('left'),copy=$('copy'),code=$('code'),copied=$('copied');
const pad=(n)=>String(n).padStart(2,'0');
const fmt=(s)=>{s=Math.max(0,Math.floor(s));const d=Math.floor(s/86400),h=Math.floor(s%86400/3600),m=Math.floor(s%3600/60);
return d>0?d+' '+(d===1?'dia':'dias')+(h>0?' e '+h+' h':''):h>0?h+' h '+pad(m)+' min':pad(m)+':'+pad(s%60)};
let end=performance.now()+Number(left.dataset.seconds)*1000,state=status.dataset.state;
const tick=()=>{if(state==='pending')$('left-value').textContent=fmt((end-performance.now())/1000)};
const show=(s)=>{if(s.state!==state){state=s.state;status.dataset.state=s.state;status.textContent=s.message;
if(state!=='pending'){pay.hidden=true;left.hidden=true;$('foot').hidden=true}if(state==='paid'&&$('amount-label'))$('amount-label').textContent='Valor pago'}
if(state==='pending'){end=performance.now()+s.secondsLeft*1000;if(s.ready&&!code)location.reload()}};
if(copy&&code){copy.hidden=false;copy.addEventListener('click',async()=>{
try{await navigator.clipboard.writeText(code.value)}catch{code.select();document.execCommand('copy')}
copy.textContent='Código copiado';copied.textContent='Código Pix copiado';
setTimeout(()=>{copy.textContent='Copiar código Pix';copied.textContent=''},3000)})}
let wait=1000;
const poll=async()=>{if(state!=='pending')return;
try{const r=await fetch(base+'/status',{cache:'no-store'});if(r.ok){show((await r.json()).data);wait=1000}else wait=Math.min(wait*2,30000)}
catch{wait=Math.min(wait*2,30000)}
setTimeout(poll,wait)};
const live=()=>{const es=new EventSource(base+'/events');
es.onmessage=(e)=>{show(JSON.parse(e.data));if(state!=='pending')es.close()};
es.onerror=()=>{if(es.readyState===2)setTimeout(poll,wait)}};
setInterval(tick,1000);if(state==='pending'){if(window.EventSource)live();else setTimeout(poll,wait)}
})();`;

export function shell(nonce: string, title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
${head}<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** Enough rows to show the whole code on a phone (about 32 monospace characters a line at 375 pixels). */
const codeRows = (code: string) => Math.min(12, Math.max(3, Math.ceil(code.length / 32)));

/** The QR and the copy-and-paste code with its button; `qrAlt` says what scanning it does. */
export function codeSection(view: CheckoutView, token: string, title: string, qrAlt: string, intro = ''): string {
  if (view.copyPaste === null || view.qrPngBase64 === null) {
    return '<p id="pay">Gerando o código Pix… esta página se atualiza sozinha.</p>';
  }
  return `<section id="pay" aria-labelledby="pay-title">
<h2 id="pay-title" class="sr">${escapeHtml(title)}</h2>
${intro}<img class="qr" src="/pay/${token}/qr.png" width="264" height="264" alt="${escapeHtml(qrAlt)}">
<label for="code">Pix copia e cola</label>
<textarea id="code" rows="${codeRows(view.copyPaste)}" readonly spellcheck="false">${escapeHtml(view.copyPaste)}</textarea>
<button id="copy" type="button" hidden>Copiar código Pix</button>
<p id="copied" class="sr" role="status" aria-live="polite"></p>
</section>`;
}

export const statusLine = (view: CheckoutView): string =>
  `<p id="status" class="status" role="status" aria-live="polite" data-state="${view.state}">${stateMessage(view)}</p>`;

/** The countdown while the page waits (hidden once it is over); `label` says to what. */
export function timeLeftLine(view: CheckoutView, label: string, now: Date, after = ''): string {
  const seconds = secondsLeft(view, now);
  const hidden = view.state === 'pending' ? '' : ' hidden';
  return `<p id="left" class="left" data-seconds="${seconds}"${hidden}>${label}: <span id="left-value">${formatTimeLeft(seconds)}</span>${after}</p>`;
}

export const pageScript = (nonce: string): string => `<script nonce="${nonce}">${SCRIPT}</script>`;

/** Without JavaScript the page reloads itself while it waits, so the status still changes. */
export const refreshWhilePending = (view: CheckoutView): string =>
  view.state === 'pending' ? '<noscript><meta http-equiv="refresh" content="15"></noscript>\n' : '';
