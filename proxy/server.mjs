// One REST proxy in front of every Nines bot process: @discordjs/proxy over @discordjs/rest,
// which keeps Discord's per-route buckets and the bot's global budget in this one process, so
// processes that each believed they had 50 requests a second no longer collect 429s together.
// The bots point DISCORD_API_BASE at it (http://proxy:8080/api/v10); it forwards each
// request's own Authorization header (interaction callbacks and webhooks carry none).
//
// Environment:
//   PORT                        where to listen (default 8080)
//   DISCORD_API_BASE            upstream API with its version (default https://discord.com/api/v10)
//   GLOBAL_REQUESTS_PER_SECOND  the bot's global budget (default 50, Discord's:
//                               https://discord.com/developers/docs/topics/rate-limits#global-rate-limit)
import { createServer } from 'node:http';
import process from 'node:process';
import { proxyRequests } from '@discordjs/proxy';
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
	globalRequestsPerSecond: positiveInt('GLOBAL_REQUESTS_PER_SECOND', 50),
	// The bot (discord.py) retries 5xx and network errors itself; retrying here too would
	// multiply them. A 429 is still waited out and retried here: queued, never passed on,
	// unlike the proxy-container's rejectOnRateLimit, since discord.py takes a 429 without
	// Discord's JSON body for a Cloudflare ban and gives up.
	retries: 0,
});
rest.on('rateLimited', (info) => {
	console.log(`rate limited ${info.global ? 'globally' : `on ${info.route}`}: waiting ${info.timeToReset} ms`);
});

const proxy = proxyRequests(rest);
const server = createServer((req, res) => {
	// An error the proxy does not map to an answer (e.g. the upstream unreachable) ends the
	// response as it stands, then is thrown: it must read 502, which the bot retries like any
	// server error, not 200 with no body, and must not end this process.
	res.statusCode = 502;
	proxy(req, res).catch((error) => console.error(`${req.method} ${req.url}:`, error));
});

// `docker stop` and Ctrl-C: stop taking connections, finish those in flight.
for (const signal of ['SIGTERM', 'SIGINT']) {
	process.on(signal, () => server.close(() => process.exit(0)));
}
server.listen(port, () => console.log(`Listening on port ${port}, forwarding to ${base}`));
