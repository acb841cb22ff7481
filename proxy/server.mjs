// One REST proxy in front of every Nines bot process: @discordjs/proxy over @discordjs/rest,
// which keeps Discord's per-route buckets and the bot's global budget in this one process, so
// processes that each believed they had 50 requests a second no longer collect 429s together.
// The bots point DISCORD_API_BASE at it (http://proxy:8080/api/v10); it forwards each
// request's own Authorization header (interaction callbacks and webhooks carry none).
//
// Environment:
//   PORT                        where to listen (default 8080)
//   DISCORD_API_BASE            upstream API with its version (default https://discord.com/api/v10)
//   GLOBAL_REQUESTS_PER_SECOND  the bot's global budget (default 45: Discord's 50, less a
//                               margin since this proxy's second and Discord's are out of
//                               step, see README;
//                               https://discord.com/developers/docs/topics/rate-limits#global-rate-limit)
import { createServer } from 'node:http';
import process from 'node:process';
import { populateErrorResponse, populateSuccessfulResponse } from '@discordjs/proxy';
import { REST } from '@discordjs/rest';

function positiveInt(name, fallback) {
	const text = process.env[name]?.trim() || String(fallback);
	const value = Number(text);
	if (!Number.isInteger(value) || value < 1) {
		console.error(`${name}=${JSON.stringify(text)} must be a whole number, 1 or more.`);
		process.exit(2);
	}
	return value;
}

const base = (process.env.DISCORD_API_BASE?.trim() || 'https://discord.com/api/v10').replace(/\/+$/, '');
// @discordjs/rest takes the base and the version apart (it builds `${api}/v${version}${route}`);
// the proxy drops whatever /api/vN the bot's request path starts with.
const versioned = /^(?<api>https?:\/\/.+)\/v(?<version>\d+)$/.exec(base);
if (!versioned) {
	console.error(`DISCORD_API_BASE=${JSON.stringify(base)} must be an http(s) URL ending in /v<version>, e.g. https://discord.com/api/v10.`);
	process.exit(2);
}
const port = positiveInt('PORT', 8080);

const rest = new REST({
	api: versioned.groups.api,
	version: versioned.groups.version,
	globalRequestsPerSecond: positiveInt('GLOBAL_REQUESTS_PER_SECOND', 45),
	// The bot (discord.py) retries 5xx and network errors itself; retrying here too would
	// multiply them. A 429 is still waited out and retried here: queued, never passed on,
	// unlike the proxy-container's rejectOnRateLimit, since discord.py takes a 429 without
	// Discord's JSON body and Via header for a Cloudflare ban and gives up (discord/http.py).
	retries: 0,
});
rest.on('rateLimited', (info) => {
	console.log(`rate limited ${info.global ? 'globally' : `on ${info.route}`}: waiting ${info.timeToReset} ms`);
});

/**
 * @discordjs/proxy's proxyRequests, with one change: the body is read whole before the request
 * is queued. proxyRequests hands the incoming stream itself to @discordjs/rest, which, when
 * Discord answers 429 after all (see README), sends the request again with that stream
 * already read: an empty body, a message lost. A buffer is sent again whole.
 */
async function forward(req, res) {
	const url = new URL(req.url, 'http://noop');
	const chunks = [];
	for await (const chunk of req) chunks.push(chunk);
	const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
	const headers = { 'Content-Type': req.headers['content-type'] };
	if (req.headers.authorization) headers.authorization = req.headers.authorization;
	if (req.headers['x-audit-log-reason']) headers['x-audit-log-reason'] = req.headers['x-audit-log-reason'];
	try {
		const answer = await rest.queueRequest({
			body,
			fullRoute: url.pathname.replace(/^\/api(\/v\d+)?/, ''),
			method: req.method,
			auth: false, // each request's own Authorization header, forwarded above
			passThroughBody: true,
			query: url.searchParams,
			headers,
		});
		await populateSuccessfulResponse(res, answer);
	} catch (error) {
		if (!populateErrorResponse(res, error)) {
			// Not Discord's answer (e.g. the upstream unreachable): a 502, which the bot
			// retries like any server error, instead of this process dying on it.
			console.error(`${req.method} ${req.url}:`, error);
			res.statusCode = 502;
		}
	} finally {
		res.end();
	}
}

const server = createServer((req, res) => {
	forward(req, res).catch((error) => {
		console.error(`${req.method} ${req.url}:`, error);
		res.destroy();
	});
});

// `docker stop` and Ctrl-C: stop taking connections, finish those in flight.
for (const signal of ['SIGTERM', 'SIGINT']) {
	process.on(signal, () => server.close(() => process.exit(0)));
}
server.listen(port, () => console.log(`Listening on port ${port}, forwarding to ${base}`));
