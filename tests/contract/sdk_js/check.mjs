// The official JS SDK against a running emulator: every call issue 11 touches.
// Run: npm install && WDS_BASE_URL=http://127.0.0.1:3002 WDS_API_KEY=<key> node check.mjs
// Prints one line per call (OK/FAIL) and exits 1 when any call fails.
// Not run by pytest or CI: node is not a test dependency.
import http from "node:http";
import Firecrawl from "@mendable/firecrawl-js";

const apiUrl = process.env.WDS_BASE_URL ?? "http://127.0.0.1:3002";
const apiKey = process.env.WDS_API_KEY;
if (!apiKey) {
  console.error("set WDS_API_KEY (and WDS_BASE_URL) to the emulator's key and address");
  process.exit(2);
}
const fc = new Firecrawl({ apiKey, apiUrl });
let failures = 0;

async function step(name, call, show = (value) => JSON.stringify(value)) {
  try {
    const value = await call();
    console.log(`OK   ${name}: ${String(show(value)).slice(0, 160)}`);
    return value;
  } catch (error) {
    failures += 1;
    console.log(`FAIL ${name}: ${error?.constructor?.name} ${error?.status ?? ""} ${error?.code ?? ""} ${String(error?.message).slice(0, 200)}`);
    return undefined;
  }
}

async function expectError(name, call, status, code) {
  try {
    await call();
    failures += 1;
    console.log(`FAIL ${name}: no error, expected ${status} ${code}`);
  } catch (error) {
    const good = error?.status === status && error?.code === code;
    if (!good) failures += 1;
    console.log(`${good ? "OK  " : "FAIL"} ${name}: ${error?.status} ${error?.code}`);
  }
}

// A loopback receiver for webhook deliveries.
const hooks = [];
const receiver = http.createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => { body += chunk; });
  req.on("end", () => {
    const event = JSON.parse(body);
    hooks.push({ type: event.type, signed: Boolean(req.headers["x-service-signature"]), metadata: event.metadata });
    res.writeHead(200).end();
  });
});
await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const webhook = { url: `http://127.0.0.1:${receiver.address().port}/hook`, metadata: { from: "js-sdk" },
                  events: ["started", "page", "completed", "failed"] };
const site = "https://acme-outdoor.com";
const never = (n) => `${site}/never-cached-js-${Date.now()}-${n}`;

await step("scrape formats", () => fc.scrape(`${site}/about`, { formats: ["markdown", "links", "html"] }),
  (d) => `${d.metadata?.statusCode} ${d.metadata?.cacheState} ${Object.keys(d)}`);
await step("scrape maxAge hit", () => fc.scrape(`${site}/about`, { maxAge: 600000 }), (d) => d.metadata?.cacheState);
await step("scrape minAge hit", () => fc.scrape(`${site}/about`, { minAge: 1 }), (d) => d.metadata?.cacheState);
await step("scrape lockdown hit", () => fc.scrape(`${site}/about`, { lockdown: true }), (d) => d.metadata?.creditsUsed);
await expectError("scrape minAge miss", () => fc.scrape(never(1), { minAge: 1 }), 404, "SCRAPE_NO_CACHED_DATA");
await expectError("scrape lockdown miss", () => fc.scrape(never(2), { lockdown: true }), 404, "SCRAPE_LOCKDOWN_CACHE_MISS");

await step("map limit 100000", () => fc.map("https://bigbox-supply.com", { limit: 100000 }), (m) => m.links.length);
await step("map search", () => fc.map("https://bigbox-supply.com", { search: "garden", limit: 20 }), (m) => m.links[0]?.url);
for (const sitemap of ["skip", "include", "only"]) {
  await step(`map sitemap ${sitemap}`, () => fc.map("https://trailhead-journal.com", { sitemap, limit: 5000 }),
    (m) => m.links.length);
}
await step("map includeSubdomains false", () => fc.map("https://bigbox-supply.com", { includeSubdomains: false, limit: 100000 }),
  (m) => m.links.length);

const started = await step("batch start (lockdown, webhook)", () => fc.startBatchScrape(
  [`${site}/about`, never(3)], { options: { lockdown: true }, webhook }), (r) => r.id);
if (started) await step("batch status", () => fc.getBatchScrapeStatus(started.id), (j) => `${j.status} ${j.completed}/${j.total}`);
await step("batch waiter (lockdown)", () => fc.batchScrape([`${site}/about`, never(4)],
  { options: { lockdown: true }, pollInterval: 1, timeout: 60 }),
  (j) => `${j.status} ${j.data.map((d) => `${d.metadata?.statusCode}/${d.metadata?.code ?? "-"}`)}`);
await step("batch waiter (minAge)", () => fc.batchScrape([never(5)], { options: { minAge: 1 }, pollInterval: 1, timeout: 60 }),
  (j) => `${j.status} ${j.data.map((d) => `${d.metadata?.statusCode}/${d.metadata?.code ?? "-"}`)}`);
await step("batch of 150 pages (next pages followed)", () => fc.batchScrape(
  Array.from({ length: 150 }, (_, i) => `https://harbour-books.com/js-${i}`), { pollInterval: 1, timeout: 120 }),
  (j) => `${j.status} ${j.data.length} documents`);

const crawl = await step("crawl start (webhook)", () => fc.startCrawl(site, { limit: 20, webhook }), (r) => r.id);
if (crawl) {
  await step("crawl status", () => fc.getCrawlStatus(crawl.id), (j) => `${j.status} ${j.completed}/${j.total}`);
  await step("active crawls", () => fc.getActiveCrawls(), (r) => r.crawls.length);
  await step("crawl cancel", () => fc.cancelCrawl(crawl.id));
  await step("crawl status after cancel", () => fc.getCrawlStatus(crawl.id), (j) => j.status);
  await step("crawl errors", () => fc.getCrawlErrors(crawl.id), (r) => r.errors.length);
}
await step("crawl waiter", () => fc.crawl(site, { limit: 3, pollInterval: 1, timeout: 60 }), (j) => `${j.status} ${j.data.length}`);
await step("crawl waiter (lockdown scrapeOptions)", () => fc.crawl("https://corner-bakery.com",
  { limit: 3, scrapeOptions: { lockdown: true }, pollInterval: 1, timeout: 60 }),
  (j) => `${j.status} ${j.data.map((d) => d.metadata?.statusCode)}`);
await step("crawl params preview", () => fc.crawlParamsPreview(site, "only the blog, at most 20 pages"),
  (p) => Object.keys(p).length + " keys");

await step("token usage", () => fc.getTokenUsage());
await step("token usage historical", () => fc.getTokenUsageHistorical(), (r) => JSON.stringify(r.periods.at(-1)));
await step("token usage historical by key", () => fc.getTokenUsageHistorical(true), (r) => r.periods.length);
await step("credit usage", () => fc.getCreditUsage());
await step("credit usage historical", () => fc.getCreditUsageHistorical(), (r) => JSON.stringify(r.periods.at(-1)));
await step("concurrency", () => fc.getConcurrency());
await step("queue status", () => fc.getQueueStatus());

await new Promise((resolve) => setTimeout(resolve, 2500)); // the emulator delivers twice a second
receiver.close();
const kinds = {};
for (const hook of hooks) kinds[hook.type] = (kinds[hook.type] ?? 0) + 1;
const unsigned = hooks.filter((h) => !h.signed).length;
console.log(`webhooks received: ${JSON.stringify(kinds)}; unsigned: ${unsigned}`);
if (!kinds["crawl.started"] || !kinds["batch_scrape.started"]) failures += 1;
console.log(failures ? `${failures} FAILED` : "all OK");
process.exit(failures ? 1 : 0);
