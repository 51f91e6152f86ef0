// The floor of a paged walk (npm run bench): the smallest node:http program that reads page 1 of the
// directory, learns the page count from it, then asks for every other page at once through one
// keep-alive agent of 4 sockets (so 4 in flight, each connection reused), and prints all the
// records, in page order, as one indented JSON array. Whatever tokenintel does beyond this is its
// own cost. Usage: node floor-pages.mjs '<url of the listing, with its query, without page>'
import http from "node:http";

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
const page = (n) =>
  new Promise((resolve, reject) => {
    http
      .get(`${process.argv[2]}&page=${n}`, { agent }, (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve(JSON.parse(body)));
      })
      .on("error", reject);
  });

const first = await page(1);
const count = first.meta.pagination.pageCount;
const rest = await Promise.all(Array.from({ length: count - 1 }, (_, i) => page(i + 2)));
const records = [first, ...rest].flatMap((body) => body.data);
process.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
agent.destroy();
