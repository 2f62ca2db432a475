// The partner console's page: plain JS module, no build step. Every value from the server is set
// as text (textContent), never as markup.

const $ = (id) => document.getElementById(id);
let csrfToken = '';
let me = null;

function flash(text, error = false) {
  const el = $('flash');
  el.textContent = text;
  el.classList.toggle('error', error);
  el.hidden = !text;
}

async function loadCsrf() {
  const r = await fetch('/console/api/csrf', { credentials: 'same-origin' });
  csrfToken = (await r.json()).csrfToken;
}

/** a console call: JSON in and out, the CSRF token on state changes; throws the API's error */
async function api(method, path, body) {
  const headers = {};
  if (method === 'POST') {
    headers['x-csrf-token'] = csrfToken;
    headers['content-type'] = 'application/json';
  }
  const r = await fetch(`/console/api${path}`, { method, headers, credentials: 'same-origin', body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined });
  const json = await r.json().catch(() => ({}));
  if (!r.ok) {
    const err = new Error(json.detail || `HTTP ${r.status}`);
    err.status = r.status;
    err.code = json.error;
    throw err;
  }
  return json;
}

/** each daily limit the organisation's keys run under and what is left of it (the first used up refuses calls until UTC midnight) */
function drawLimits(limits) {
  const body = $('limitstable').querySelector('tbody');
  body.replaceChildren();
  const rows = [
    ['each key', { dailyUnits: limits.dailyUnitsPerKey, usedUnits: null, remainingUnits: null }],
    ['the organisation (all keys)', limits.org],
    ...(limits.sandbox ? [[`all sandbox keys (${Math.round(limits.sandbox.share * 100)} % of the budget)`, limits.sandbox]] : []),
    ['the service (all partners)', limits.budget],
  ];
  const n = (v, none) => (v === null ? none : String(v));
  for (const [name, a] of rows) {
    const tr = document.createElement('tr');
    cell(tr, name);
    cell(tr, n(a.dailyUnits, 'by contract'));
    cell(tr, n(a.usedUnits, '-'));
    cell(tr, n(a.remainingUnits, '-'));
    body.appendChild(tr);
  }
}

function cell(tr, text, cls) {
  const td = document.createElement('td');
  td.textContent = text ?? '';
  if (cls) td.className = cls;
  tr.appendChild(td);
  return td;
}

function button(label, onClick, cls = 'small') {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.className = cls;
  b.addEventListener('click', onClick);
  return b;
}

const day = (iso) => (iso ? iso.slice(0, 10) : '');
const when = (iso) => (iso ? iso.replace('T', ' ').slice(0, 19) : '');
/** an identity as typed: the address without its `wallet:` or `email:` */
const bare = (identity) => identity.replace(/^(wallet|email):/, '');

async function guarded(fn) {
  try {
    flash('');
    await fn();
  } catch (e) {
    if (e.status === 401 && e.code === 'signin_required') return showSignIn();
    flash(e.message, true);
  }
}

// ---- sign-in ----

function hexOf(text) {
  return `0x${[...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

async function signInWithWallet() {
  const eth = window.ethereum;
  if (!eth) {
    $('nowallet').hidden = false;
    return;
  }
  await guarded(async () => {
    const [address] = await eth.request({ method: 'eth_requestAccounts' });
    const chainId = Number.parseInt(await eth.request({ method: 'eth_chainId' }), 16);
    const { message } = await api('POST', '/siwe/challenge', { address, chainId });
    const signature = await eth.request({ method: 'personal_sign', params: [hexOf(message), address] });
    await api('POST', '/siwe/verify', { message, signature });
    await start();
  });
}

async function sendEmailLink(ev) {
  ev.preventDefault();
  await guarded(async () => {
    const r = await api('POST', '/email/start', { email: $('email').value });
    const el = $('emailsent');
    el.textContent = r.delivery === 'smtp' ? `A sign-in link is on its way to ${r.email}.` : `A sign-in link for ${r.email} was written to the server log (no mail server is configured).`;
    el.hidden = false;
  });
}

async function followEmailLink() {
  const m = /^#email-token=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!m) return;
  history.replaceState(null, '', location.pathname);
  await guarded(async () => {
    await api('POST', '/email/verify', { token: m[1] });
  });
}

function showSignIn() {
  me = null;
  $('signin').hidden = false;
  $('app').hidden = true;
  $('signout').hidden = true;
  $('whoami').textContent = '';
  $('nowallet').hidden = Boolean(window.ethereum);
}

// ---- panels ----

const panels = {
  async keys() {
    const r = await api('GET', '/keys');
    const mode = r.live
      ? 'Your organisation is live: new keys are live keys (key_live_).'
      : 'Your organisation is in sandbox: new keys are sandbox keys (key_test_, paper mode). Go live in Settings.';
    $('keysmode').textContent = `${mode} ${r.cap.active} of ${r.cap.max} keys active.`;
    const body = $('keystable').querySelector('tbody');
    body.replaceChildren();
    for (const k of r.keys) {
      const tr = document.createElement('tr');
      tr.dataset.keyId = k.keyId;
      if (k.revokedAt) tr.className = 'revoked';
      cell(tr, k.name ?? '');
      cell(tr, `${k.prefix}…${k.lastFour ?? ''}`);
      cell(tr, k.kind);
      cell(tr, day(k.createdAt));
      cell(tr, k.lastUsed ?? 'never');
      cell(tr, k.revokedAt ? `revoked ${day(k.revokedAt)}` : 'active');
      const actions = cell(tr, '');
      if (!k.revokedAt) {
        actions.appendChild(
          button('Revoke', () =>
            guarded(async () => {
              await api('POST', '/keys/revoke', { keyId: k.keyId });
              flash(`Key ${k.prefix}…${k.lastFour ?? ''} revoked.`);
              await panels.keys();
            }),
          ),
        );
      }
      body.appendChild(tr);
    }
  },
  async usage() {
    const u = await api('GET', '/usage');
    $('unitstoday').textContent = String(u.unitsToday);
    $('requeststoday').textContent = String(u.requestsToday);
    $('plan').textContent = u.plan;
    $('rate').textContent = String(u.ratePerMinute);
    $('quota').textContent = u.dailyUnitsPerKey === null ? 'by contract' : String(u.dailyUnitsPerKey);
    drawLimits(u.limits);
    const body = $('bytable').querySelector('tbody');
    body.replaceChildren();
    const ops = Object.entries(u.byOperation).sort((a, b) => b[1] - a[1]);
    for (const [op, units] of ops) {
      const tr = document.createElement('tr');
      cell(tr, op);
      cell(tr, String(units));
      body.appendChild(tr);
    }
    if (ops.length === 0) {
      const tr = document.createElement('tr');
      cell(tr, 'no calls billed today');
      cell(tr, '');
      body.appendChild(tr);
    }
    drawChart(u.days);
  },
  async webhooks() {
    const r = await api('GET', '/webhooks');
    const body = $('hookstable').querySelector('tbody');
    body.replaceChildren();
    for (const e of r.endpoints) {
      const tr = document.createElement('tr');
      tr.dataset.endpointId = e.endpointId;
      cell(tr, e.url);
      cell(tr, e.events ? e.events.join(', ') : 'all');
      cell(tr, e.enabled ? 'enabled' : `disabled (${e.disabledReason ?? ''})`);
      cell(tr, day(e.createdAt));
      const actions = cell(tr, '');
      actions.append(
        button('Send test', () =>
          guarded(async () => {
            const t = await api('POST', '/webhooks/test', { endpointId: e.endpointId });
            flash(`Test event ${t.eventId} queued.`);
            await showDeliveries(e);
          }),
        ),
        button('Deliveries', () => guarded(() => showDeliveries(e))),
        button('Delete', () =>
          guarded(async () => {
            await api('POST', '/webhooks/delete', { endpointId: e.endpointId });
            $('deliveries').hidden = true;
            await panels.webhooks();
          }),
        ),
      );
      body.appendChild(tr);
    }
  },
  async settings() {
    const org = me.org;
    $('orgname').textContent = org.name;
    $('orgid').textContent = org.orgId;
    $('orgmode').textContent = org.live ? 'live' : 'sandbox';
    const owner = me.member.role === 'owner';
    $('terms').disabled = !owner || org.live;
    $('goliveButton').disabled = true;
    $('golivenote').textContent = org.live
      ? `Live since ${when(org.termsAcceptedAt)}.`
      : owner
        ? ''
        : 'Only the organisation owner can go live.';
    $('memberform').hidden = !owner;
    $('invitenote').hidden = !owner;
    await showMembers(owner);
    await showMyInvitations();
    const sessions = await api('GET', '/sessions');
    $('sessions').replaceChildren(
      ...sessions.sessions.map((s) => {
        const li = document.createElement('li');
        li.textContent = `${bare(s.identity)} · ${s.method} · since ${when(s.createdAt)}${s.current ? ' · this browser' : ' '}`;
        if (!s.current) {
          li.appendChild(
            button('Revoke', () =>
              guarded(async () => {
                await api('POST', '/sessions/revoke', { sessionId: s.sessionId });
                await panels.settings();
              }),
            ),
          );
        }
        return li;
      }),
    );
  },
  async audit() {
    const r = await api('GET', '/audit');
    const body = $('audittable').querySelector('tbody');
    body.replaceChildren();
    for (const e of r.entries) {
      const tr = document.createElement('tr');
      cell(tr, when(e.at));
      // a member's wallet or e-mail, or the API key a change came through
      cell(tr, bare(e.actor.identity).replace(/^apikey:/, 'API key '));
      cell(tr, e.action);
      cell(tr, e.target ?? '');
      body.appendChild(tr);
    }
  },
};

/** a list item of text, with buttons when given */
function item(text, ...buttons) {
  const li = document.createElement('li');
  li.textContent = text;
  li.append(...buttons);
  return li;
}

/** the organisation's members with their roles and its open invitations; the owner removes and revokes */
async function showMembers(owner) {
  const r = await api('GET', '/members');
  const act = (label, path, body) =>
    button(label, () =>
      guarded(async () => {
        await api('POST', path, body);
        await panels.settings();
      }),
    );
  $('members').replaceChildren(
    ...r.members.map((m) => item(`${bare(m.identity)} (${m.role})`, ...(owner && m.role !== 'owner' ? [act('Remove', '/members/remove', { memberId: m.memberId })] : []))),
  );
  $('inviteshead').hidden = r.invitations.length === 0;
  $('invites').replaceChildren(
    ...r.invitations.map((i) =>
      item(`${bare(i.identity)} (${i.role}) · invited by ${bare(i.invitedBy)} · until ${day(i.expiresAt)}`, ...(owner ? [act('Revoke', '/members/invitations/revoke', { inviteId: i.inviteId })] : [])),
    ),
  );
}

/** invitations addressed to the signed-in identity: accept (a new session in that organisation) or decline */
async function showMyInvitations() {
  const r = await api('GET', '/invitations');
  $('forme').hidden = r.invitations.length === 0;
  $('myinvites').replaceChildren(
    ...r.invitations.map((i) =>
      item(
        `${i.orgName} invites you as ${i.role} (by ${bare(i.invitedBy)}) `,
        button('Accept', () =>
          guarded(async () => {
            const joined = await api('POST', '/invitations/accept', { inviteId: i.inviteId });
            await start();
            flash(`You joined ${joined.org.name} as ${joined.member.role}.`);
          }),
        ),
        button('Decline', () =>
          guarded(async () => {
            await api('POST', '/invitations/decline', { inviteId: i.inviteId });
            await panels.settings();
          }),
        ),
      ),
    ),
  );
}

function drawChart(days) {
  const svg = $('chart');
  const ns = 'http://www.w3.org/2000/svg';
  svg.replaceChildren();
  const max = Math.max(1, ...days.map((d) => d.units));
  const w = 280 / days.length;
  days.forEach((d, i) => {
    const h = Math.round((d.units / max) * 95);
    const rect = document.createElementNS(ns, 'rect');
    rect.setAttribute('x', String(i * w + 2));
    rect.setAttribute('y', String(100 - h));
    rect.setAttribute('width', String(w - 4));
    rect.setAttribute('height', String(h));
    const title = document.createElementNS(ns, 'title');
    title.textContent = `${d.day}: ${d.units} units`;
    rect.appendChild(title);
    const label = document.createElementNS(ns, 'text');
    label.setAttribute('x', String(i * w + 2));
    label.setAttribute('y', '112');
    label.textContent = d.day.slice(8);
    svg.append(rect, label);
  });
}

async function showDeliveries(e) {
  const r = await api('POST', '/webhooks/deliveries', { endpointId: e.endpointId });
  $('deliveries').hidden = false;
  $('deliveriesof').textContent = `${e.url} · ${r.pending} queued`;
  const body = $('deliverytable').querySelector('tbody');
  body.replaceChildren();
  for (const d of r.deliveries) {
    const tr = document.createElement('tr');
    cell(tr, d.eventId);
    cell(tr, d.type);
    cell(tr, String(d.attempt));
    cell(tr, d.statusCode ? `${d.result} (${d.statusCode})` : `${d.result}${d.error ? `: ${d.error}` : ''}`);
    body.appendChild(tr);
  }
}

async function showPanel(name) {
  for (const b of document.querySelectorAll('.tabs button')) b.setAttribute('aria-selected', String(b.dataset.panel === name));
  for (const p of document.querySelectorAll('.panel')) p.hidden = p.id !== `panel-${name}`;
  document.body.dataset.panel = name;
  await guarded(() => panels[name]());
  document.body.dataset.ready = name;
}

async function start() {
  try {
    me = await api('GET', '/me');
  } catch (e) {
    if (e.status === 401) return showSignIn();
    throw e;
  }
  $('signin').hidden = true;
  $('app').hidden = false;
  $('signout').hidden = false;
  $('whoami').textContent = `${bare(me.member.identity)} · ${me.member.role} · ${me.org.live ? 'live' : 'sandbox'}`;
  $('audittab').hidden = me.member.role !== 'owner';
  await showPanel('keys');
  const waiting = (await api('GET', '/invitations')).invitations.length;
  if (waiting > 0) flash(`You have ${waiting} invitation(s) to join an organisation: see Settings.`);
}

// ---- wiring ----

$('siwe').addEventListener('click', signInWithWallet);
$('emailform').addEventListener('submit', sendEmailLink);
$('signout').addEventListener('click', () =>
  guarded(async () => {
    await api('POST', '/signout');
    showSignIn();
  }),
);
for (const b of document.querySelectorAll('.tabs button')) b.addEventListener('click', () => showPanel(b.dataset.panel));

$('keyform').addEventListener('submit', (ev) => {
  ev.preventDefault();
  guarded(async () => {
    const name = $('keyname').value.trim();
    const r = await api('POST', '/keys/create', name ? { name } : {});
    $('newkeytext').textContent = r.plaintext;
    $('newkey').hidden = false;
    $('trykey').value = r.plaintext;
    $('keyname').value = '';
    await panels.keys();
  });
});
$('copykey').addEventListener('click', () =>
  guarded(async () => {
    await navigator.clipboard.writeText($('newkeytext').textContent);
    flash('Key copied to the clipboard.');
  }),
);
$('tryform').addEventListener('submit', (ev) => {
  ev.preventDefault();
  guarded(async () => {
    // a partner API call from this page, with the key as a partner's code would send it
    const r = await fetch('/v1/usage', { headers: { authorization: `Bearer ${$('trykey').value.trim()}` } });
    const out = $('tryresult');
    out.textContent = `HTTP ${r.status}\n${JSON.stringify(await r.json().catch(() => ({})), null, 2)}`;
    out.dataset.status = String(r.status);
    out.hidden = false;
  });
});

$('hookform').addEventListener('submit', (ev) => {
  ev.preventDefault();
  guarded(async () => {
    const description = $('hookdesc').value.trim();
    const r = await api('POST', '/webhooks/create', { url: $('hookurl').value.trim(), ...(description ? { description } : {}) });
    $('newhooksecret').textContent = r.secret;
    $('newhook').hidden = false;
    $('hookurl').value = '';
    $('hookdesc').value = '';
    await panels.webhooks();
  });
});
$('copyhook').addEventListener('click', () =>
  guarded(async () => {
    await navigator.clipboard.writeText($('newhooksecret').textContent);
    flash('Secret copied to the clipboard.');
  }),
);

$('terms').addEventListener('change', () => {
  $('goliveButton').disabled = !$('terms').checked;
});
$('goliveButton').addEventListener('click', () =>
  guarded(async () => {
    const r = await api('POST', '/golive', { acceptTerms: true });
    $('terms').checked = false;
    await start();
    await showPanel('settings');
    flash(`Your organisation is live: ${r.revokedSandboxKeys} sandbox key(s) revoked. Mint live keys in the Keys panel.`);
  }),
);
$('memberform').addEventListener('submit', (ev) => {
  ev.preventDefault();
  guarded(async () => {
    const r = await api('POST', '/members/invite', { identity: $('memberid').value.trim() });
    $('memberid').value = '';
    await panels.settings();
    flash(`Invited ${bare(r.invitation.identity)}: it counts once they accept.`);
  });
});

// a sign-in link opened in a tab that already shows the console changes only the fragment
window.addEventListener('hashchange', () => {
  if (!location.hash.startsWith('#email-token=')) return;
  followEmailLink()
    .then(start)
    .catch((e) => flash(String(e.message || e), true));
});

(async () => {
  await loadCsrf();
  await followEmailLink();
  await start();
})().catch((e) => flash(String(e.message || e), true));
