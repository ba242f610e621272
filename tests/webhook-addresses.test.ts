import type dns from "node:dns";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { fieldMessage, UserError } from "~/lib/problem";
import { DeliveryError } from "~/models/outbox/delivery-error";
import { postWebhook, signatureHeader, webhookSignature } from "~/models/outbox/webhook-send.server";
import { type AddressKind, addressKind, checkWebhookUrl, type ResolveHost } from "~/models/webhooks/addresses.server";

/*
 * Where a webhook may point (issue 26, docs/decisions/046): only public https:// addresses by
 * default, however the address is spelt, checked when the owner saves it and again on the
 * address a delivery actually connects to. No database here; the saving and sending with one are
 * in webhooks.test.ts.
 */

describe("the kind of an IP address", () => {
  const cases: Record<AddressKind, string[]> = {
    public: [
      "1.1.1.1",
      "8.8.8.8",
      "93.184.215.14",
      "172.15.255.255",
      "172.32.0.1",
      "100.63.255.255",
      "100.128.0.1",
      "192.169.0.1",
      "223.255.255.255",
      "2606:4700:4700::1111",
      "[2001:4860:4860::8888]",
      "::ffff:8.8.8.8",
      "64:ff9b::808:808",
    ],
    loopback: [
      "127.0.0.1",
      "127.255.255.254",
      "::1",
      "[::1]",
      "0:0:0:0:0:0:0:1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "0:0:0:0:0:ffff:7f00:1",
      "[::FFFF:127.0.0.1]",
      "64:ff9b::7f00:1",
    ],
    private: [
      "10.0.0.1",
      "10.255.255.255",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "fc00::1",
      "fd12:3456:789a::1",
      "fec0::1",
      "64:ff9b:1::a00:1",
      "::ffff:10.0.0.1",
      "::ffff:c0a8:101",
    ],
    "link-local": ["169.254.169.254", "169.254.0.1", "fe80::1", "fe80::1%eth0", "::ffff:169.254.169.254"],
    shared: ["100.64.0.1", "100.127.255.255", "::ffff:100.100.100.100"],
    multicast: ["224.0.0.1", "239.255.255.250", "ff02::1", "ff0e::1"],
    unspecified: ["0.0.0.0", "0.1.2.3", "::", "[::]", "::ffff:0.0.0.0"],
    documentation: ["192.0.2.1", "198.51.100.7", "203.0.113.9", "2001:db8::1", "3fff::1"],
    reserved: [
      "240.0.0.1",
      "255.255.255.255",
      "192.0.0.8",
      "198.18.0.1",
      "192.88.99.1",
      "2002:7f00:1::1",
      "2001::1",
      "::7f00:1",
      "::127.0.0.1",
      "100::1",
      "4000::1",
    ],
  };
  for (const [kind, addresses] of Object.entries(cases)) {
    it(`knows ${kind} addresses`, () => {
      for (const address of addresses) expect(addressKind(address), address).toBe(kind);
    });
  }

  it("is null for what is not an IP address", () => {
    for (const text of ["example.com", "localhost", "1.2.3", "999.1.1.1", "01.2.3.4", "::g", "[::1", ""]) {
      expect(addressKind(text), text).toBeNull();
    }
  });
});

/** A resolver that answers from a table (a name it does not know does not resolve). */
function resolver(table: Record<string, string[]>): ResolveHost & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (host: string) => {
    asked.push(host);
    const answer = table[host];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return answer;
  };
  return Object.assign(resolve, { asked });
}

/** The refusal's message key (with its parameters) at the URL field, or "accepted: <url>". */
async function verdict(url: string, allowPrivate = false, resolve = resolver({})): Promise<string> {
  try {
    return `accepted: ${await checkWebhookUrl(url, { allowPrivate, resolve })}`;
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    expect(error.problem.field).toBe("url");
    expect(error.status).toBe(400);
    return error.key;
  }
}

const refused = (kind: string, where: string) =>
  fieldMessage(`adminWebhooks.errors.urlAddress.${kind}`, { where: where });

describe("an address the owner saves, by default", () => {
  it("refuses the loopback however it is spelt", async () => {
    for (const url of [
      "https://127.0.0.1/hook",
      "https://2130706433/",
      "https://0x7f.1/",
      "https://0x7f000001/",
      "https://017700000001/",
      "https://127.1/",
      "https://%31%32%37.0.0.1/",
      "https://127.0.0.1./",
      "https://[::1]:8443/x",
    ]) {
      expect(await verdict(url), url).toMatch(/^adminWebhooks\.errors\.urlAddress\.loopback\?where=/);
    }
    expect(await verdict("https://2130706433/")).toBe(refused("loopback", "127.0.0.1"));
    expect(await verdict("https://[::ffff:127.0.0.1]/")).toBe(refused("loopback", "::ffff:7f00:1"));
    expect(await verdict("https://[0:0:0:0:0:ffff:7f00:1]/")).toBe(refused("loopback", "::ffff:7f00:1"));
    expect(await verdict("https://localhost:3000/")).toBe(refused("loopback", "localhost"));
    expect(await verdict("https://admin.localhost/")).toBe(refused("loopback", "admin.localhost"));
  });

  it("refuses private, link-local, shared, multicast, unspecified and reserved addresses", async () => {
    expect(await verdict("https://10.0.0.5/hook")).toBe(refused("private", "10.0.0.5"));
    expect(await verdict("https://192.168.1.20/")).toBe(refused("private", "192.168.1.20"));
    expect(await verdict("https://[fd00::1]/")).toBe(refused("private", "fd00::1"));
    expect(await verdict("https://169.254.169.254/latest/meta-data/")).toBe(refused("link_local", "169.254.169.254"));
    expect(await verdict("https://[fe80::1]/")).toBe(refused("link_local", "fe80::1"));
    expect(await verdict("https://100.64.1.1/")).toBe(refused("shared", "100.64.1.1"));
    expect(await verdict("https://224.0.0.1/")).toBe(refused("multicast", "224.0.0.1"));
    expect(await verdict("https://0/")).toBe(refused("unspecified", "0.0.0.0"));
    expect(await verdict("https://[::]/")).toBe(refused("unspecified", "::"));
    expect(await verdict("https://192.0.2.1/")).toBe(refused("documentation", "192.0.2.1"));
    expect(await verdict("https://255.255.255.255/")).toBe(refused("reserved", "255.255.255.255"));
  });

  it("refuses names of a private network without asking a resolver, and a name that resolves to one", async () => {
    const resolve = resolver({
      "evil.example.com": ["10.1.2.3"],
      "mixed.example.com": ["93.184.215.14", "127.0.0.1"],
      "mapped.example.com": ["::ffff:127.0.0.1"],
      "metadata.example.com": ["169.254.169.254"],
    });
    expect(await verdict("https://printer/", false, resolve)).toBe(refused("private", "printer"));
    expect(await verdict("https://nas.local/", false, resolve)).toBe(refused("private", "nas.local"));
    expect(await verdict("https://hooks.internal/", false, resolve)).toBe(refused("private", "hooks.internal"));
    expect(await verdict("https://router.home.arpa/", false, resolve)).toBe(refused("private", "router.home.arpa"));
    expect(resolve.asked).toEqual([]);
    expect(await verdict("https://evil.example.com/", false, resolve)).toBe(
      refused("private", "evil.example.com (10.1.2.3)"),
    );
    // Any one answer that is not public is enough: a connection might use it.
    expect(await verdict("https://mixed.example.com/", false, resolve)).toBe(
      refused("loopback", "mixed.example.com (127.0.0.1)"),
    );
    expect(await verdict("https://mapped.example.com/", false, resolve)).toBe(
      refused("loopback", "mapped.example.com (::ffff:127.0.0.1)"),
    );
    expect(await verdict("https://metadata.example.com/", false, resolve)).toBe(
      refused("link_local", "metadata.example.com (169.254.169.254)"),
    );
  });

  it("refuses a name that does not resolve", async () => {
    const resolve = resolver({});
    expect(await verdict("https://hooks.example.org/", false, resolve)).toBe(
      fieldMessage("adminWebhooks.errors.urlUnresolved", { host: "hooks.example.org" }),
    );
    expect(await verdict("https://shop.invalid/", false, resolve)).toBe(
      fieldMessage("adminWebhooks.errors.urlUnresolved", { host: "shop.invalid" }),
    );
    expect(resolve.asked).toEqual(["hooks.example.org"]);
  });

  it("wants https://, a URL, and no user name or password in it", async () => {
    expect(await verdict("http://93.184.215.14/hook")).toBe("adminWebhooks.errors.urlHttps");
    expect(await verdict("ftp://93.184.215.14/")).toBe("adminWebhooks.errors.urlScheme");
    expect(await verdict("javascript:alert(1)")).toBe("adminWebhooks.errors.urlScheme");
    expect(await verdict("hooks.example.com/shop")).toBe("adminWebhooks.errors.urlInvalid");
    expect(await verdict("https://")).toBe("adminWebhooks.errors.urlInvalid");
    expect(await verdict("https://user:pw@93.184.215.14/")).toBe("adminWebhooks.errors.urlCredentials");
    expect(await verdict(`https://93.184.215.14/${"a".repeat(2000)}`)).toBe(
      fieldMessage("adminWebhooks.errors.urlTooLong", { max: 2000 }),
    );
  });

  it("accepts a public https:// address, stored without its fragment", async () => {
    const resolve = resolver({ "hooks.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"] });
    expect(await verdict("https://93.184.215.14/hook")).toBe("accepted: https://93.184.215.14/hook");
    expect(await verdict(" https://Hooks.Example.com:443/shop?x=1#top ", false, resolve)).toBe(
      "accepted: https://hooks.example.com/shop?x=1",
    );
    expect(await verdict("https://[2606:4700:4700::1111]:8443/")).toBe(
      "accepted: https://[2606:4700:4700::1111]:8443/",
    );
  });
});

describe("an address the owner saves, with http:// and private addresses allowed", () => {
  it("accepts http:// and any address, without resolving it", async () => {
    const resolve = resolver({});
    expect(await verdict("http://127.0.0.1:8080/bridge", true, resolve)).toBe("accepted: http://127.0.0.1:8080/bridge");
    expect(await verdict("http://2130706433/", true, resolve)).toBe("accepted: http://127.0.0.1/");
    expect(await verdict("https://10.0.0.5/", true, resolve)).toBe("accepted: https://10.0.0.5/");
    expect(await verdict("http://bridge.local:9000/", true, resolve)).toBe("accepted: http://bridge.local:9000/");
    expect(resolve.asked).toEqual([]);
  });

  it("still wants an http(s) URL without a user name or password", async () => {
    expect(await verdict("ftp://127.0.0.1/", true)).toBe("adminWebhooks.errors.urlScheme");
    expect(await verdict("http://u:p@127.0.0.1/", true)).toBe("adminWebhooks.errors.urlCredentials");
  });
});

describe("a delivery, on the address it connects to", () => {
  let server: http.Server | null = null;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve) ?? resolve(null));
    server = null;
  });

  /** A receiver on a free loopback port that answers with `handler`; counts connections. */
  async function receiver(handler: http.RequestListener) {
    const connections = { count: 0, requests: [] as string[] };
    server = http.createServer((request, response) => {
      connections.requests.push(`${request.method} ${request.url}`);
      handler(request, response);
    });
    server.on("connection", () => connections.count++);
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    return { port: (server.address() as AddressInfo).port, connections };
  }

  const ok: http.RequestListener = (_request, response) => response.end("ok");

  /** A resolver that answers 127.0.0.1 for every name: a name whose DNS answer changed after the save. */
  const rebound = ((_host: string, _options: unknown, callback: (...args: unknown[]) => void) =>
    callback(null, [{ address: "127.0.0.1", family: 4 }])) as unknown as typeof dns.lookup;

  async function refusal(promise: Promise<unknown>): Promise<DeliveryError> {
    const error = await promise.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(DeliveryError);
    return error as DeliveryError;
  }

  it("never connects to a private address, literal or resolved, unless allowed", async () => {
    const { port, connections } = await receiver(ok);
    const post = (url: string, allowPrivate = false) =>
      postWebhook(url, "{}", {}, { allowPrivate, lookup: rebound, timeoutMs: 2000 });
    expect((await refusal(post(`http://127.0.0.1:${port}/`))).message).toMatch(/^refused: http:\/\//);
    expect((await refusal(post(`https://127.0.0.1:${port}/`))).message).toMatch(/^refused: 127\.0\.0\.1, not a public/);
    expect((await refusal(post(`https://2130706433:${port}/`))).message).toMatch(/^refused: 127\.0\.0\.1/);
    expect((await refusal(post(`https://[::ffff:127.0.0.1]:${port}/`))).message).toMatch(/^refused: ::ffff:7f00:1/);
    expect((await refusal(post(`https://localhost:${port}/`))).message).toMatch(/^refused: localhost/);
    // The name passed the save's check; its answer now is the loopback: refused in the lookup.
    const rebind = await refusal(post(`https://hooks.example.com:${port}/`));
    expect(rebind.message).toMatch(/^refused: hooks\.example\.com resolves to 127\.0\.0\.1, not a public address/);
    expect(rebind.responseStatus).toBeNull();
    expect(connections.count).toBe(0);

    // With private addresses allowed, the same names reach the receiver.
    expect((await post(`http://hooks.example.com:${port}/hook`, true)).status).toBe(200);
    expect((await post(`http://127.0.0.1:${port}/hook`, true)).status).toBe(200);
    expect(connections.requests).toEqual(["POST /hook", "POST /hook"]);
  });

  it("takes an answer's status; follows no redirect; gives up after the timeout", async () => {
    const { port, connections } = await receiver((request, response) => {
      if (request.url === "/moved") {
        response.writeHead(302, { Location: `http://127.0.0.1:${port}/elsewhere` }).end();
      } else if (request.url === "/broken") {
        response.writeHead(500).end("database is down\n");
      } else if (request.url === "/slow") {
        // Never answers.
      } else {
        response.writeHead(204).end();
      }
    });
    const post = (path: string, timeoutMs = 2000) =>
      postWebhook(`http://127.0.0.1:${port}${path}`, '{"event":"ping"}', {}, { allowPrivate: true, timeoutMs });
    expect(await post("/fine")).toMatchObject({ status: 204 });
    expect(await post("/moved")).toMatchObject({ status: 302, location: `http://127.0.0.1:${port}/elsewhere` });
    expect(await post("/broken")).toMatchObject({ status: 500, snippet: "database is down\n" });
    const slow = await refusal(post("/slow", 300));
    expect(slow.message).toBe("no answer within 0.3 s");
    expect(connections.requests).toEqual(["POST /fine", "POST /moved", "POST /broken", "POST /slow"]);
  });
});

describe("the signature", () => {
  it("is the hex HMAC-SHA256 of '<timestamp>.<body>' with the secret, as the README's receiver checks it", () => {
    const body = '{"event":"ping","id":"d1","occurred_at":"2026-11-26T10:00:00.000Z"}';
    // Computed independently: printf '1764151200.<body>' | openssl dgst -sha256 -hmac whsec_test
    expect(webhookSignature("whsec_test", 1764151200, body)).toBe(
      "e870c12c3426ac091606df574a53977d2d537167307d057f8562baf77f2c56c9",
    );
    expect(signatureHeader("whsec_test", 1764151200, body)).toMatch(/^t=1764151200,v1=[0-9a-f]{64}$/);
    expect(webhookSignature("whsec_test", 1764151201, body)).not.toBe(webhookSignature("whsec_test", 1764151200, body));
    expect(webhookSignature("whsec_other", 1764151200, body)).not.toBe(
      webhookSignature("whsec_test", 1764151200, body),
    );
  });
});
