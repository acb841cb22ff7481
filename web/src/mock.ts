/**
 * Discord's SDK mocked, for the browser tests and work outside Discord: only in the build made
 * with `node build.mjs --mock` (MOCK_SDK true); the production build leaves it out.
 *
 * `?mock=<user id>` turns it on; `guild`, `channel`, `instance`, `code` (what authorize()
 * answers), `name`, `client_id` and `locale` come from the query too.
 */
import { DiscordSDKMock } from "@discord/embedded-app-sdk";

export function mockSdk(query: URLSearchParams, mockUser: string): DiscordSDKMock {
  const sdk = new DiscordSDKMock(query.get("client_id") ?? "mock", query.get("guild"), query.get("channel"), null);
  const instance = query.get("instance");
  // The mock's instance id is a fixed string; the tests give each page its own.
  if (instance !== null) Object.defineProperty(sdk, "instanceId", { value: instance });
  const name = query.get("name") ?? `user ${mockUser}`;
  sdk._updateCommandMocks({
    authorize: async () => ({ code: query.get("code") ?? `mock-${mockUser}` }),
    authenticate: async (args) => ({
      access_token: args.access_token ?? "",
      user: { username: name, discriminator: "0", id: mockUser, avatar: null, public_flags: 0 },
      scopes: ["identify"],
      expires: new Date(Date.now() + 3_600_000).toString(),
      application: { id: query.get("client_id") ?? "mock", description: "", name: "Nines" },
    }),
    userSettingsGetLocale: async () => ({ locale: query.get("locale") ?? navigator.language }),
  });
  return sdk;
}
