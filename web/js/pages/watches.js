// List watches: mailing-list archives read with lei (docs/api.md "List
// watches").
//   #/watches       every watch (admin keys: the list is theirs)
//   #/watches/ID    its series, each version beside the one before it
//                   (v1 | v2 | ...: state, experiment, reply, base used),
//                   a link to each thread, and the refused messages.
import { h, fmt, link, stateBadge, arr } from '../util.js';
import { api } from '../api.js';

const str = (v) => (v === null || v === undefined || v === '' ? '–' : String(v));

// The thread of Message-ID @id: on the archive's web when it is a URL.
function threadLink(inbox, id) {
	const bare = String(id || '').replace(/^<|>$/g, '');
	if (/^https:\/\//.test(inbox || '') && bare)
		return h('a', { href: inbox.replace(/\/*$/, '/') + encodeURIComponent(bare) + '/', class: 'thread-link', rel: 'noreferrer' }, id);
	return h('span', { class: 'mono thread-id' }, str(id));
}

export async function render(ctx) {
	if (ctx.params.length && ctx.params[0]) return renderOne(ctx, ctx.params[0]);
	document.title = 'Watches · perflab';
	const root = h('div', { id: 'watches' }, h('h1', null, 'List watches'));
	ctx.el.appendChild(root);
	const list = arr(await api('/api/v1/watches'), 'watches');
	if (!list.length) {
		root.appendChild(h('div', { class: 'empty', id: 'watches-empty' },
			h('strong', null, 'No watches yet. '), 'An admin registers one with ',
			h('code', null, 'POST /api/v1/watches'), ' (docs/api.md).'));
		return;
	}
	root.appendChild(h('table', { id: 'watches-table' },
		h('thead', null, h('tr', null, ['#', 'Name', 'Query', 'Base', 'Series', 'Messages', 'Polled']
			.map((c, i) => h('th', { class: [0, 4, 5].includes(i) ? 'num' : null }, c)))),
		h('tbody', null, list.map((w) => h('tr', { dataset: { id: w.id } },
			h('td', { class: 'num' }, h('a', { href: link('/watches/' + w.id) }, String(w.id))),
			h('td', null, h('a', { href: link('/watches/' + w.id) }, str(w.name))),
			h('td', { class: 'mono' }, str(w.query)),
			h('td', null, str(w.base) + ' ' + str(w.ref)),
			h('td', { class: 'num' }, str(w.nseries)),
			h('td', { class: 'num' }, str(w.nmessages)),
			h('td', null, w.poll_error ? h('span', { class: 'error' }, 'failed: ' + w.poll_error) : fmt.ago(w.polled_at)))))));
}

// Chains of versions: each series after the one it follows (previous_id).
function chains(series) {
	const byId = new Map(series.map((s) => [s.id, s]));
	const next = new Set(series.filter((s) => byId.has(s.previous_id)).map((s) => s.previous_id));
	return series.filter((s) => !next.has(s.id)).map((last) => {
		const c = [last];
		for (let s = byId.get(last.previous_id); s && c.length < 50; s = byId.get(s.previous_id)) c.unshift(s);
		return c;
	});
}

function versionCell(w, s) {
	const r = s.reply;
	return h('td', { class: 'watch-version', dataset: { id: s.id } },
		h('div', null, h('b', null, 'v' + s.version), ' ', stateBadge(s.state), ' ', String(s.total), ' patch' + (s.total === 1 ? '' : 'es')),
		s.experiment_id ? h('div', null, h('a', { href: link('/experiments/' + s.experiment_id), class: 'experiment-link' }, 'experiment #' + s.experiment_id), ' ', str(s.experiment_state)) : null,
		s.base_used ? h('div', { class: 'small mono' }, s.base_used.replace(/@(.{12}).*/, '@$1') + ' (' + str(s.base_how) + ')') : null,
		s.reason ? h('div', { class: 'small muted watch-reason' }, s.reason) : null,
		r ? h('div', { class: 'small watch-reply' }, 'reply: ' + r.status + (r.note ? ' — ' + r.note : '')) : null,
		h('div', { class: 'small' }, 'thread: ', threadLink(w.inbox, s.reply_to)));
}

async function renderOne(ctx, id) {
	document.title = 'Watch ' + id + ' · perflab';
	const w = await api('/api/v1/watches/' + encodeURIComponent(id));
	if (ctx.stale) return;
	const root = h('div', { id: 'watch' });
	ctx.el.appendChild(root);
	root.append(
		h('h1', null, 'Watch ', String(w.id), ': ', str(w.name)),
		h('p', { class: 'muted', id: 'watch-head' }, str(w.inbox) + ' · ', h('span', { class: 'mono' }, str(w.query)),
			' · ' + str(w.base) + ' ' + str(w.ref) + ' · as ' + str(w.submit_key) + ' · polled ' + fmt.ago(w.polled_at)),
		w.poll_error ? h('p', { class: 'error', id: 'watch-poll-error' }, 'The last poll failed: ' + w.poll_error) : '');
	const all = chains(arr(w.series));
	root.appendChild(h('h2', null, 'Series'));
	root.appendChild(all.length ? h('table', { id: 'watch-series' },
		h('thead', null, h('tr', null, h('th', null, 'Subject'), h('th', null, 'Author'), h('th', null, 'Versions'))),
		h('tbody', null, all.map((c) => h('tr', null,
			h('td', null, str(c[c.length - 1].subject)), h('td', null, str(c[0].author)),
			h('td', null, h('table', { class: 'watch-versions' }, h('tr', null, c.map((s) => versionCell(w, s))))))))) :
		h('div', { class: 'empty', id: 'watch-empty' }, 'No series yet: patches appear after the next poll.'));
	const refused = arr(w.log).filter((m) => m.kind === 'refused');
	root.appendChild(h('h2', null, 'Refused messages'));
	root.appendChild(refused.length ? h('table', { id: 'watch-refused' },
		h('thead', null, h('tr', null, h('th', null, 'Message'), h('th', null, 'Subject'), h('th', null, 'Why'))),
		h('tbody', null, refused.map((m) => h('tr', null, h('td', null, threadLink(w.inbox, m.message_id)),
			h('td', null, str(m.subject)), h('td', null, str(m.reason)))))) :
		h('p', { class: 'muted' }, 'None.'));
}
